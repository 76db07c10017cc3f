/// One PlistBuddy command, as `PlistBuddyCommandParser` reads it from a line.
///
/// Entries are kept as written (after quotes and escapes are taken out, `\:` kept as the two
/// characters that mark a colon inside a key): messages quote them that way, and
/// `PlistBuddyEntry` splits them. Values are bytes, as PlistBuddy reads them: a `data` value is
/// the text's bytes, not base64.
public enum PlistBuddyCommand: Sendable, Hashable {
    /// `Help` (or `?`): the command guide.
    case help
    /// `Exit` (or `Quit`, `Bye`): leaves interactive mode without saving; nothing under `-c`.
    case exit
    /// `Save`: writes the document to its file.
    case save
    /// `Revert`: reads the file again, dropping unsaved changes.
    case revert
    /// `Clear [type]`: a new empty root of the type; nil (a missing or unknown type) is a dictionary.
    case clear(PlistBuddyValueType?)
    /// `Print [entry]` (or `ls`): nil prints the working container (the whole file unless `CD` moved it).
    case print(entry: String?)
    /// `Set entry value` (or `=`): a new value of the type already there.
    case set(entry: String, value: [UInt8])
    /// `Add entry type [value]` (or `+`); a nil value is one whose quotes were not closed.
    case add(entry: String, type: PlistBuddyValueType, value: [UInt8]?)
    /// `Copy source destination` (or `cp`).
    case copy(source: String, destination: String)
    /// `Delete entry` (or `Remove`, `rm`, `-`).
    case delete(entry: String)
    /// `Merge [-r] file [entry]`: the file's entries added to a container, `-r` merging
    /// containers met on both sides instead of skipping them. A nil entry is the working container.
    case merge(file: String, entry: String?, recursive: Bool)
    /// `Import entry file`: the file's bytes as the entry's value (data for a new entry).
    case importFile(entry: String, file: String)
    /// `CD entry`: makes a container the working one, which entries without a leading colon start from.
    case changeContainer(entry: String)
    /// A `-c` at the end of the arguments, with no command after it: does nothing.
    case nothing
}
