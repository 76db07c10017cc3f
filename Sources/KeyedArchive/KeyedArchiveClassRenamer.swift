import Foundation
import PropertyList
import TypedStream

/// Renames classes in a keyed archive, the data fix for a blob that stopped decoding after a
/// module or target rename (`NSKeyedUnarchiver` refuses `OldApp.Color`, "cannot decode object
/// of class").
///
/// It works on the raw property list, not on decoded objects: only the class descriptions change
/// (`$classname`, and the names in `$classes` chains and `$classhints`), so everything else is
/// kept as it was: object order, UIDs, `$top` keys, shared objects, fields Archivist does not
/// understand. With no renames it converts an archive between binary and XML and nothing else.
///
/// Old names match as written, as `Module.Class` and in Swift's mangled form
/// (`_TtC6OldApp5Color`), whichever the archive holds; the new name is written as Swift's
/// runtime writes it (`ArchivedClassName.asSwiftWritesIt`): `Module.Class` for a top-level class,
/// mangled for a nested one, any other name exactly as given.
public struct KeyedArchiveClassRenamer: Sendable {
    /// One `OLD=NEW`.
    public struct Rename: Sendable, Hashable, CustomStringConvertible {
        /// The class to rename, in any of its forms.
        public var old: String
        /// The name to write.
        public var new: String

        /// - Throws: `KeyedArchiveError.invalidRequest` when `new` is not a valid class name or
        ///   `old` is empty.
        public init(old: String, new: String) throws(KeyedArchiveError) {
            guard !old.isEmpty else { throw KeyedArchiveError(.invalidRequest, "--rename-class \(old)=\(new): the old class name is empty") }
            if let problem = ArchivedClassName.problem(new) {
                throw KeyedArchiveError(.invalidRequest, "--rename-class \(old)=\(new): \(problem)")
            }
            self.old = old
            self.new = new
        }

        /// Parses `OLD=NEW`.
        public init(_ text: String) throws(KeyedArchiveError) {
            guard let equals = text.firstIndex(of: "=") else {
                throw KeyedArchiveError(.invalidRequest, "--rename-class takes OLD=NEW, such as OldApp.Color=NewApp.Color (got \"\(text)\")")
            }
            try self.init(old: String(text[..<equals]), new: String(text[text.index(after: equals)...]))
        }

        /// The name written in place of the old one.
        public var written: String { ArchivedClassName.asSwiftWritesIt(new) }

        public var description: String { "\(old)=\(new)" }
    }

    /// One class description that changed.
    public struct Change: Sendable, Hashable {
        /// The UID of the class description in `$objects`.
        public var uid: Int
        /// `$classname` before and after (equal when only the chain or hints changed).
        public var oldName: String
        public var newName: String
        /// Which of `renames` applied, by index.
        public var renames: Set<Int>
    }

    /// What renaming did to one archive.
    public struct Report: Sendable, Hashable {
        /// Every class description that changed, in UID order.
        public var changes: [Change] = []
        /// The renames (by index) whose old name some class of the archive has, changed or
        /// already written as the new name.
        public var matched: Set<Int> = []
        /// Every `$classname` of the archive, as it was, in UID order.
        public var classNames: [String] = []
    }

    /// The rewritten archive.
    public struct Result: Sendable {
        public var data: Data
        public var format: PropertyListFormat
        public var report: Report
    }

    public var renames: [Rename]
    /// Limits for reading the archive.
    public var readOptions: PropertyListReadOptions

    public init(renames: [Rename], readOptions: PropertyListReadOptions = .default) {
        self.renames = renames
        self.readOptions = readOptions
    }

    /// Reads `data`, renames, and writes it in `format` (by default, the format it was read in).
    ///
    /// What was written is read back and compared with what was meant before it is returned.
    ///
    /// - Throws: `KeyedArchiveError` when the bytes are not a keyed archive, a class reference
    ///   leads nowhere, or the format cannot be written (`.json`, `.openStep`).
    /// An NSArchiver typedstream is rewritten as the keyed archive of the same objects, in
    /// Foundation's layout (`KeyedArchive(typedStream:)`, then `KeyedArchiveWriter`), binary
    /// unless `format` says XML: the way a value NSUnarchiver reads becomes one NSKeyedUnarchiver
    /// reads.
    public func rewrite(_ data: Data, to format: PropertyListFormat? = nil) throws(KeyedArchiveError) -> Result {
        if TypedStream.isTypedStream(data) {
            var options = KeyedArchiveReadOptions()
            options.propertyList = readOptions
            let archive = try KeyedArchive(data: data, options: options)
            return try rewrite(plist: KeyedArchiveWriter().plist(for: archive), to: format ?? .binary)
        }
        let plist: PropertyListValue
        let read: PropertyListFormat
        do {
            (plist, read) = try PropertyListReader(options: readOptions).read(data)
        } catch {
            throw KeyedArchiveError(.propertyList, error.description, underlying: error)
        }
        return try rewrite(plist: plist, to: format ?? (read == .xml ? .xml : .binary))
    }

    /// Renames in an archive's property list (`KeyedArchive.plist`) and writes it in `format`,
    /// read back and compared before it is returned.
    public func rewrite(plist original: PropertyListValue, to target: PropertyListFormat) throws(KeyedArchiveError) -> Result {
        var plist = original
        let report = try rename(&plist)
        let written: Data
        do {
            switch target {
            case .binary: written = BinaryPropertyListWriter().write(plist)
            case .xml: written = try XMLPropertyListWriter().write(plist)
            case .json, .openStep:
                throw KeyedArchiveError(.invalidRequest, "an archive is written as binary or xml, not \(target.rawValue)")
            }
        } catch let error as KeyedArchiveError {
            throw error
        } catch {
            throw KeyedArchiveError(.invalidRequest, "cannot write \(target.rawValue): \(error)")
        }
        // Read back what was written: it must be what was meant (XML keeps dates to the second).
        do {
            let back = try PropertyListReader(options: readOptions).read(written, as: target)
            guard Self.same(plist, back, wholeSecondDates: target == .xml) else {
                throw KeyedArchiveError(.malformed, "the rewritten archive does not read back as written")
            }
        } catch let error as KeyedArchiveError {
            throw error
        } catch {
            throw KeyedArchiveError(.malformed, "the rewritten archive does not read back: \(error)")
        }
        return Result(data: written, format: target, report: report)
    }

    /// The name `name` is written under once renamed: the new name of the first rename whose old
    /// name matches it, else `name`.
    public func renamed(_ name: String) -> String {
        renames.first { ArchivedClassName.matches($0.old, name) }?.written ?? name
    }

    /// Renames the classes in an archive's property list in place.
    ///
    /// - Returns: what changed, and which renames matched.
    /// - Throws: `KeyedArchiveError.notAnArchive` when `plist` is not a keyed archive;
    ///   `.malformed` when an object's `$class` is not a reference to a class description.
    public func rename(_ plist: inout PropertyListValue) throws(KeyedArchiveError) -> Report {
        guard case .dictionary(var root) = plist, case .string(let archiver)? = root["$archiver"], archiver == "NSKeyedArchiver",
              case .dictionary? = root["$top"], case .array(var objects)? = root["$objects"] else {
            throw KeyedArchiveError(.notAnArchive, "not a keyed archive: no $archiver NSKeyedArchiver with $top and $objects")
        }
        // The class descriptions are what objects' $class fields refer to.
        var descriptions = Set<Int>()
        for (uid, object) in objects.enumerated() {
            // Class descriptions are not objects, even one whose own $class names itself.
            guard case .dictionary(let fields) = object, let reference = fields["$class"], fields["$classname"] == nil else { continue }
            guard case .uid(let target) = reference, target < UInt64(objects.count), target != UInt64(uid),
                  case .dictionary(let description) = objects[Int(target)], case .string? = description["$classname"] else {
                throw KeyedArchiveError(.malformed, "$class is not a reference to a class description", objectUID: uid)
            }
            descriptions.insert(Int(target))
        }
        var report = Report()
        for uid in descriptions.sorted() {
            if case .dictionary(let description) = objects[uid], case .string(let name)? = description["$classname"] {
                report.classNames.append(name)
            }
        }
        guard !renames.isEmpty else { return report }
        // Let go of the root's copy, so the array is changed in place.
        root["$objects"] = .null
        for uid in descriptions.sorted() {
            guard case .dictionary(var description) = objects[uid], case .string(let oldName)? = description["$classname"] else { continue }
            var applied = Set<Int>()
            func renamed(_ name: String) -> String? {
                guard let index = renames.firstIndex(where: { ArchivedClassName.matches($0.old, name) }) else { return nil }
                report.matched.insert(index)
                let written = renames[index].written
                guard written != name else { return nil }
                applied.insert(index)
                return written
            }
            let newName = renamed(oldName) ?? oldName
            description["$classname"] = .string(newName)
            for key in ["$classes", "$classhints"] {
                guard case .array(var names)? = description[key] else { continue }
                for i in names.indices {
                    if case .string(let name) = names[i], let new = renamed(name) { names[i] = .string(new) }
                }
                description[key] = .array(names)
            }
            guard !applied.isEmpty else { continue }
            objects[uid] = .dictionary(description)
            report.changes.append(Change(uid: uid, oldName: oldName, newName: newName, renames: applied))
        }
        root["$objects"] = .array(objects)
        plist = .dictionary(root)
        return report
    }

    /// Equality, with dates compared to the second when `wholeSecondDates` (XML's precision).
    static func same(_ a: PropertyListValue, _ b: PropertyListValue, wholeSecondDates: Bool) -> Bool {
        switch (a, b) {
        case (.date(let x), .date(let y)):
            return x == y || (wholeSecondDates && abs(x.timeIntervalSince(y)) < 1)
        case (.array(let x), .array(let y)), (.set(let x), .set(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1, wholeSecondDates: wholeSecondDates) }
        case (.dictionary(let x), .dictionary(let y)):
            // Key order may differ: the XML writer sorts keys as Foundation does.
            guard x.count == y.count else { return false }
            if !wholeSecondDates { return x == y }
            return x.allSatisfy { entry in y[entry.key].map { same(entry.value, $0, wholeSecondDates: true) } ?? false }
        default:
            return a == b
        }
    }
}
