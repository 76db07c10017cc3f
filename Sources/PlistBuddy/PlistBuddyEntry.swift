/// An entry as PlistBuddy writes it: names separated by colons, `:CFBundleDocumentTypes:2:CFBundleTypeExtensions`.
///
/// An entry is split at its last colon that no backslash escapes: what follows is the name
/// looked up, what comes before is the entry of its container. A leading colon starts from the
/// root; an entry without one starts from the working container (the root, unless `CD` moved
/// it). An empty name stands for the container itself, and in `Add` and `Copy` for the end of
/// an array (`:CFBundleDocumentTypes:` appends).
struct PlistBuddyEntry {
    /// The entry's bytes, escapes as written.
    let text: ArraySlice<UInt8>

    init(_ text: String) {
        self.text = Array(text.utf8)[...]
    }

    init(_ text: ArraySlice<UInt8>) {
        self.text = text
    }

    /// Where the last colon that is not escaped is, if there is one.
    var lastSeparator: Int? {
        var i = text.endIndex
        while i > text.startIndex {
            i -= 1
            if text[i] == 0x3A, i == text.startIndex || text[i - 1] != 0x5C { return i }
        }
        return nil
    }

    /// The entry of the container: the text before the last separator (nil without one).
    var container: PlistBuddyEntry? {
        lastSeparator.map { PlistBuddyEntry(text[text.startIndex..<$0]) }
    }

    /// Whether the last separator is the entry's first character: the container is the root.
    var isInRoot: Bool { lastSeparator == text.startIndex }

    /// The name after the last separator, with `\:` made a colon; any other backslash stays.
    var name: String {
        let start = lastSeparator.map { $0 + 1 } ?? text.startIndex
        var out: [UInt8] = []
        var i = start
        while i < text.endIndex {
            if text[i] == 0x5C, i + 1 < text.endIndex, text[i + 1] == 0x3A {
                out.append(0x3A)
                i += 2
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
