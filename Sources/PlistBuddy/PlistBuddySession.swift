import Foundation
import PropertyList

/// One document open in PlistBuddy: what its commands do to it, with PlistBuddy's messages on
/// the console, and its exit status so far.
///
/// Entries are resolved as PlistBuddy resolves them (see `PlistBuddyEntry`), to key paths the
/// PropertyList library then reads and edits: an array index is read as C's `%i` reads it
/// (`0x10`, `010` octal; text that is no number is index 0), `Add` and `Copy` create the
/// dictionaries missing on the way, and an index past an array's end makes `Add` append.
///
/// Messages follow PlistBuddy's streams: failures about entries and files go to standard error
/// and set the exit status to 1; messages about values (`Unrecognized Integer Format`) and
/// progress (`Saving...`) go to standard output and leave it alone.
public struct PlistBuddySession {
    /// The document's path, as given.
    public let path: String
    public var options: PlistBuddyOptions
    /// The document as it stands, changes included.
    public private(set) var document: PropertyListValue = .dictionary(PropertyListDictionary())
    /// The container `CD` chose, where entries without a leading colon start: the root by default.
    public private(set) var workingContainer = PropertyListKeyPath(components: [])
    /// Whether a command that changes the document ran since the last save or revert (even one
    /// that failed, as on a Mac, so the file is written again at the end of a `-c` run).
    public private(set) var hasUnsavedChanges = false
    /// Whether a command failed: the run's exit status is then 1.
    public private(set) var hasFailed = false
    /// The format the file was read in; nil for a file that did not exist.
    public private(set) var fileFormat: PropertyListFormat?

    let files: any PlistBuddyFileSystem
    let console: any PlistBuddyConsole

    /// Opens `path`: reads it, or starts an empty dictionary when nothing is there (printing
    /// `File Doesn't Exist, Will Create: PATH`). Nil when the file cannot be read, after
    /// printing why on standard error and `Error Reading File: PATH` on standard output.
    public init?(path: String, options: PlistBuddyOptions = PlistBuddyOptions(), files: any PlistBuddyFileSystem = PlistBuddyLocalFiles(),
                 console: any PlistBuddyConsole) {
        self.path = path
        self.options = options
        self.files = files
        self.console = console
        guard load() else { return nil }
    }

    var printer: PlistBuddyPrinter { PlistBuddyPrinter(dates: options.dates) }
    var maker: PlistBuddyValueMaker { PlistBuddyValueMaker(dates: options.dates) }

    // MARK: Running commands

    /// Runs `command`. Returns false for `Exit`, which ends interactive mode (under `-c` it
    /// does nothing, and the loop goes on).
    @discardableResult
    public mutating func run(_ command: PlistBuddyCommand) -> Bool {
        switch command {
        case .help:
            console.writeOutput(Data(PlistBuddyHelp.guide.utf8))
        case .exit:
            return false
        case .save:
            console.say("Saving...")
            save()
        case .revert:
            console.say("Reverting to last saved state...")
            let kept = document
            if !load() { document = kept }
            hasUnsavedChanges = false
        case .clear(let type):
            console.say("Initializing Plist...")
            clear(type ?? .dict)
            hasUnsavedChanges = true
        case .print(let entry):
            print(entry)
        case .set(let entry, let value):
            set(PlistBuddyEntry(entry), entry, text: value)
            hasUnsavedChanges = true
        case .add(let entry, let type, let value):
            add(PlistBuddyEntry(entry), entry, type: type, text: value)
            hasUnsavedChanges = true
        case .copy(let source, let destination):
            copy(source, to: destination)
            hasUnsavedChanges = true
        case .delete(let entry):
            delete(entry)
            hasUnsavedChanges = true
        case .merge(let file, let entry, let recursive):
            merge(file, into: entry, recursive: recursive)
            hasUnsavedChanges = true
        case .importFile(let entry, let file):
            importFile(file, as: entry)
            hasUnsavedChanges = true
        case .changeContainer(let entry):
            changeContainer(to: entry)
        case .nothing:
            break
        }
        return true
    }

    /// Writes the document to its file, in its own format (`PlistBuddyOptions.saveFormat`).
    /// A failure is reported on standard error and fails the run (a Mac says nothing).
    public mutating func save() {
        hasUnsavedChanges = false
        let binary = options.saveFormat == .original && fileFormat == .binary
        let data: Data
        do throws(PropertyListError) {
            data = binary ? BinaryPropertyListWriter().write(document) : try XMLPropertyListWriter().write(document)
        } catch {
            return fail("Error Writing File: \(path) (\(error.description))")
        }
        do throws(PlistBuddyFileError) {
            try files.write(data, to: path)
        } catch {
            fail("Error Writing File: \(path) (\(error.reason))")
        }
    }

    mutating func fail(_ message: String) {
        console.complain(message)
        hasFailed = true
    }

    // MARK: Reading files

    /// Reads the document from its file, or starts an empty dictionary when there is none.
    mutating func load() -> Bool {
        workingContainer = PropertyListKeyPath(components: [])
        if !options.followsSymbolicLinks, files.isSymbolicLink(path) {
            console.complain("Error Opening File: \(path) [Too many levels of symbolic links]")
            console.say("Error Reading File: \(path)")
            return false
        }
        guard files.exists(path) else {
            console.say("File Doesn't Exist, Will Create: \(path)")
            document = .dictionary(PropertyListDictionary())
            fileFormat = nil
            return true
        }
        switch readPropertyList(path) {
        case .success(let (value, format)):
            document = value
            fileFormat = format
            return true
        case .failure(let error):
            console.complain(error.reason)
            console.say("Error Reading File: \(path)")
            return false
        }
    }

    /// A property list file as CoreFoundation reads one: binary, XML or OpenStep text (a JSON
    /// file is read as OpenStep, and so is refused unless it happens to be valid OpenStep).
    func readPropertyList(_ path: String) -> Result<(PropertyListValue, PropertyListFormat), PlistBuddyFileError> {
        let data: Data
        do throws(PlistBuddyFileError) {
            data = try files.read(path, limit: options.reading.maximumInputSize)
        } catch {
            return .failure(PlistBuddyFileError("\(path): \(error.reason)"))
        }
        let detected = PropertyListFormat.detect(data)
        let format: PropertyListFormat = detected == .binary || detected == .xml ? detected ?? .xml : .openStep
        guard detected != nil else {
            return .failure(PlistBuddyFileError("\(path): \(data.isEmpty ? "the file is empty" : "not a property list")"))
        }
        do throws(PropertyListError) {
            return .success((try PropertyListReader(options: options.reading).read(data, as: format), format))
        } catch {
            return .failure(PlistBuddyFileError("\(path): \(error.description)"))
        }
    }

    // MARK: Entries

    /// The value at a resolved key path.
    func value(at path: [String]) -> PropertyListValue? {
        document.value(at: PropertyListKeyPath(components: path))
    }

    /// The key path of the container `entry`'s name is looked up in (PlistBuddy's
    /// `ResolveEntryParent`), or nil when a container on the way is missing.
    func containerPath(of entry: PlistBuddyEntry) -> [String]? {
        guard let container = entry.container else { return workingContainer.components }
        if entry.isInRoot { return [] }
        guard let outer = containerPath(of: container) else { return nil }
        return childPath(in: outer, name: container.name, includingEmpty: false)
    }

    /// `containerPath(of:)` for `Add` and `Copy`, adding the dictionaries missing on the way.
    mutating func makeContainerPath(of entry: PlistBuddyEntry) -> [String]? {
        guard let container = entry.container else { return workingContainer.components }
        if entry.isInRoot { return [] }
        guard let outer = makeContainerPath(of: container) else { return nil }
        let name = container.name
        if let found = childPath(in: outer, name: name, includingEmpty: false) { return found }
        return add(.dictionary(PropertyListDictionary()), to: outer, name: name)
    }

    /// The key path of `name` in the container at `container`, or nil when there is nothing.
    ///
    /// An empty name is the container itself, unless `includingEmpty` (`Add` and `Copy`
    /// checking their destination), where it is the empty key of a dictionary and nothing in
    /// an array (where they append).
    func childPath(in container: [String], name: String, includingEmpty: Bool) -> [String]? {
        guard let value = value(at: container) else { return nil }
        if name.isEmpty, !includingEmpty { return container }
        switch value {
        case .dictionary(let d):
            return d.lastIndex(ofKey: name) != nil ? container + [name] : nil
        case .array(let a):
            guard !includingEmpty else { return nil }
            let i = CNumberScanner.index(name.utf8)
            return a.indices.contains(i) ? container + [String(i)] : nil
        default:
            return nil
        }
    }

    /// The key path of `entry`'s value (PlistBuddy's `ResolveEntryStringToRef`).
    func resolve(_ entry: PlistBuddyEntry) -> [String]? {
        guard let container = containerPath(of: entry) else { return nil }
        return childPath(in: container, name: entry.name, includingEmpty: false)
    }

    /// Puts `value` in the container at `container` under `name` (PlistBuddy's
    /// `AddEntryToPlist`): a dictionary key, kept when it is already there; in an array, at
    /// the index `name` reads as (the end when past it, or for an empty name). Nil when the
    /// container is no container, or the index is negative (where CoreFoundation stops a Mac's
    /// PlistBuddy).
    @discardableResult
    mutating func add(_ value: PropertyListValue, to container: [String], name: String) -> [String]? {
        switch self.value(at: container) {
        case .dictionary(let d)?:
            if d.lastIndex(ofKey: name) == nil {
                try? document.edit(value, at: PropertyListKeyPath(components: container + [name]), mode: .insert)
            }
            return container + [name]
        case .array(let a)?:
            var i = a.count
            if !name.isEmpty { i = min(CNumberScanner.index(name.utf8), a.count) }
            guard i >= 0 else { return nil }
            do {
                try document.edit(value, at: PropertyListKeyPath(components: container + [String(i)]), mode: .insert)
            } catch {
                return nil
            }
            return container + [String(i)]
        default:
            return nil
        }
    }

    /// Replaces the value at `path` (not the root).
    mutating func replace(at path: [String], with value: PropertyListValue) {
        try? document.edit(value, at: PropertyListKeyPath(components: path), mode: .replace)
    }

    // MARK: Commands

    mutating func clear(_ type: PlistBuddyValueType) {
        workingContainer = PropertyListKeyPath(components: [])
        if type == .date {
            // PlistBuddy reads a date from empty text, which fails; the root becomes the
            // reference date rather than nothing.
            document = .date(Date(timeIntervalSinceReferenceDate: 0))
            return
        }
        document = maker.make(type, text: []).value ?? .dictionary(PropertyListDictionary())
    }

    mutating func print(_ entry: String?) {
        let found: [String]? = entry.map { resolve(PlistBuddyEntry($0)) } ?? workingContainer.components
        guard let path = found, let value = value(at: path) else {
            return fail("Print: Entry, \"\(entry ?? "")\", Does Not Exist")
        }
        if options.printsXML {
            // What CFPropertyListCreateXMLData writes; nothing when XML cannot hold the value.
            if let xml = try? XMLPropertyListWriter().write(value) { console.writeOutput(xml) }
        } else {
            console.writeOutput(printer.text(value))
        }
    }

    /// `Set`: a new value of the type already at the entry, made from `text`.
    mutating func set(_ entry: PlistBuddyEntry, _ written: String, text: [UInt8]) {
        guard let container = containerPath(of: entry),
              let target = childPath(in: container, name: entry.name, includingEmpty: false),
              let existing = value(at: target) else {
            return fail("Set: Entry, \"\(written)\", Does Not Exist")
        }
        let type = PlistBuddyValueType(of: existing)
        if type?.isContainer == true { return fail("Set: Cannot Perform Set On Containers") }
        // A set, a UID or the null marker: PlistBuddy makes no value for a type it has no name for.
        guard let type else { return }
        let made = maker.make(type, text: text)
        if let message = made.message { console.say(message) }
        guard let value = made.value else { return }
        if target.isEmpty {
            document = value
            workingContainer = PropertyListKeyPath(components: [])
        } else if target == container {
            // `Set :name:` on a value that is no container: PlistBuddy removes and adds it in
            // itself, and neither can be done.
            fail("Set: Internal Error Occurred")
        } else {
            replace(at: target, with: value)
        }
    }

    /// `Add`: a new value of `type`, dictionaries created on the way.
    mutating func add(_ entry: PlistBuddyEntry, _ written: String, type: PlistBuddyValueType, text: [UInt8]?) {
        let made = maker.make(type, text: text)
        if let message = made.message { console.say(message) }
        guard let value = made.value else { return }
        guard let container = makeContainerPath(of: entry) else {
            // PlistBuddy says so, and exits 0.
            return console.complain("Add: Entry, \"\(written)\", Incorrectly Specified")
        }
        let name = entry.name
        if childPath(in: container, name: name, includingEmpty: true) != nil {
            return fail("Add: \"\(written)\" Entry Already Exists")
        }
        if add(value, to: container, name: name) == nil { fail("Add: Can't Add Entry, \"\(written)\", to Parent") }
    }

    mutating func copy(_ source: String, to destination: String) {
        guard let from = resolve(PlistBuddyEntry(source)), let value = value(at: from) else {
            return fail("Copy: Entry, \"\(source)\", Does Not Exist")
        }
        let entry = PlistBuddyEntry(destination)
        guard let container = makeContainerPath(of: entry) else {
            return console.complain("Copy: Entry, \"\(destination)\", Incorrectly Specified")
        }
        if childPath(in: container, name: entry.name, includingEmpty: true) != nil {
            return fail("Copy: \"\(destination)\" Entry Already Exists")
        }
        if add(value, to: container, name: entry.name) == nil { fail("Copy: Can't Add Entry, \"\(destination)\", to Parent") }
    }

    mutating func delete(_ written: String) {
        let entry = PlistBuddyEntry(written)
        guard let container = containerPath(of: entry),
              let target = childPath(in: container, name: entry.name, includingEmpty: false) else {
            return fail("Delete: Entry, \"\(written)\", Does Not Exist")
        }
        if workingContainer.components == target {
            console.say("Working Container has become Invalid.  Setting to :")
            workingContainer = PropertyListKeyPath(components: [])
        }
        // PlistBuddy's RemoveEntryFromPlist, with the name as written: an empty name removes a
        // dictionary's empty key, or an array's first element.
        let name = entry.name
        var removed: [String]?
        switch value(at: container) {
        case .dictionary(let d)?:
            if d.lastIndex(ofKey: name) != nil { removed = container + [name] }
        case .array(let a)? where !a.isEmpty:
            let i = name.isEmpty ? 0 : min(CNumberScanner.index(name.utf8), a.count - 1)
            if i >= 0 { removed = container + [String(i)] }
        default:
            break
        }
        guard let removed else { return }
        _ = try? document.remove(at: PropertyListKeyPath(components: removed))
        // A Mac goes on editing a container taken out of the document; here the working
        // container goes back to the root.
        if workingContainer.components.starts(with: removed) { workingContainer = PropertyListKeyPath(components: []) }
    }

    mutating func merge(_ file: String, into written: String?, recursive: Bool) {
        let entry = written ?? ""
        guard let target = resolve(PlistBuddyEntry(entry)), let existing = value(at: target) else {
            return fail("Merge: \"\(entry)\" Entry Does Not Exist")
        }
        guard PlistBuddyValueType(of: existing)?.isContainer == true else {
            return fail("Merge: Specified Entry Must Be a Container")
        }
        let source: PropertyListValue
        switch readPropertyList(file) {
        case .success(let (value, _)):
            source = value
        case .failure(let error):
            if files.exists(file) { console.complain(error.reason) }
            return fail("Merge: Error Reading File: \(file)")
        }
        switch (source, existing) {
        case (.dictionary, .array):
            return fail("Merge: Can't Add dict Entries to array")
        case (.array, .dictionary):
            return fail("Merge: Can't Add array Entries to dict")
        default:
            break
        }
        let merged = merging(source, into: existing, recursive: recursive)
        if target.isEmpty {
            document = merged
        } else {
            replace(at: target, with: merged)
        }
    }

    /// `source`'s entries added to `target` (PlistBuddy's `AddMultipleEntriesToPlist`): an
    /// array's elements appended, a dictionary's keys added unless `target` has them already
    /// (`Duplicate Entry Was Skipped: KEY`, or with `recursive` two containers of one type
    /// merged), any other value added as an array's last element or a dictionary's empty key.
    func merging(_ source: PropertyListValue, into target: PropertyListValue, recursive: Bool) -> PropertyListValue {
        switch (source, target) {
        case (.array(let more), .array(var elements)):
            elements.append(contentsOf: more)
            return .array(elements)
        case (.dictionary(let more), .dictionary(var entries)):
            for (key, value) in more {
                guard let i = entries.keys.lastIndex(of: key) else {
                    entries.append(key: key, value: value)
                    continue
                }
                let existing = entries.values[i]
                switch (existing, value) {
                case (.array, .array) where recursive, (.dictionary, .dictionary) where recursive:
                    entries.modifyValue(at: i) { $0 = merging(value, into: existing, recursive: true) }
                default:
                    var line = Data("Duplicate Entry Was Skipped: ".utf8)
                    line.append(printer.text(key))
                    console.writeOutput(line)
                }
            }
            return .dictionary(entries)
        case (_, .array(var elements)):
            elements.append(source)
            return .array(elements)
        case (_, .dictionary(var entries)):
            if entries.lastIndex(ofKey: "") == nil { entries.append(key: "", value: source) }
            return .dictionary(entries)
        default:
            return target
        }
    }

    mutating func importFile(_ file: String, as written: String) {
        let entry = PlistBuddyEntry(written)
        let existing = resolve(entry).flatMap { value(at: $0) }
        if let existing, PlistBuddyValueType(of: existing)?.isContainer == true {
            return fail("Import: Specified Entry Must Not Be a Container")
        }
        let bytes: Data
        do throws(PlistBuddyFileError) {
            bytes = try files.read(file, limit: options.reading.maximumInputSize)
        } catch {
            return fail("Import: Error Reading File: \(file)")
        }
        // The file's bytes as the command's value: Set for an entry that exists (its type
        // kept, so a string takes the text), Add of data for a new one.
        if existing != nil {
            set(entry, written, text: Array(bytes))
        } else {
            add(entry, written, type: .data, text: Array(bytes))
        }
    }

    mutating func changeContainer(to written: String) {
        guard let path = resolve(PlistBuddyEntry(written)), let value = value(at: path) else {
            return fail("CD: Entry, \"\(written)\", Does Not Exist")
        }
        guard PlistBuddyValueType(of: value)?.isContainer == true else {
            return fail("CD: Entry, \"\(written)\", Is Not A Container")
        }
        workingContainer = PropertyListKeyPath(components: path)
    }
}
