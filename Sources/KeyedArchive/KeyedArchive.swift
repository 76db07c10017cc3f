import Foundation
import PropertyList
import TypedStream
import NIBArchive

/// An NSKeyedArchiver archive, validated and decoded into a graph of typed objects, without
/// instantiating any class.
///
/// Objects are kept by UID and refer to each other by UID, exactly as the archive does: an object
/// referenced twice is one object, and a cycle is a reference back to an ancestor. Every object
/// reachable from `$top` is decoded; `plist` keeps the archive as read, so every byte stays
/// accounted for.
public struct KeyedArchive: Sendable, Hashable {
    /// `$archiver`: "NSKeyedArchiver" for a keyed archive; "NSArchiver" for a typedstream;
    /// "NIBArchive" for a compiled nib.
    public var archiver: String
    /// `$version`: 100000; for a typedstream, its system version (1000 on Mac OS X); for a
    /// compiled nib, its header's coder version (10).
    public var version: Int
    /// The NSArchiver typedstream the archive was read from, for one read from a typedstream:
    /// its objects are this archive's objects (object *n* of the stream is UID *n* + 1), each
    /// with the groups and type encodings the stream wrote. Nil for a keyed archive.
    public var typedStream: TypedStream?

    /// Whether the archive was read from an NSArchiver typedstream, which no secure unarchiver
    /// reads.
    public var isTypedStream: Bool { typedStream != nil }
    /// The compiled nib the archive was read from, for one read from a NIBArchive: its objects
    /// are this archive's objects (object *n* of the nib is UID *n* + 1). Nil otherwise.
    public var nibArchive: NIBArchive?

    /// Whether the archive was read from a compiled nib (NIBArchive), which is no secure-coding
    /// blob: UINibDecoder and NSNib instantiate any class it names.
    public var isNIBArchive: Bool { nibArchive != nil }
    /// `$top`, in the order written.
    public var top: [ArchivedField]
    /// The root object: the `$top` entry named by `KeyedArchiveReadOptions.topKey` (`root`), or
    /// else the only entry, or else `$0`. Nil when `$top` names none of these; every `$top`
    /// entry is decoded all the same.
    public var root: ArchivedValue?
    /// Decoded objects by UID. Class descriptions, `$null` and unreachable entries are nil.
    public var objects: [ArchivedObject?]
    /// The archive as a property list.
    ///
    /// An archive read from binary data builds this tree only when it is first asked for: the
    /// decoded objects do not need it, and most callers never look at it.
    public var plist: PropertyListValue {
        get { plistSource.value }
        set { plistSource = PlistSource(newValue) }
    }

    var plistSource: PlistSource

    public init(archiver: String = "NSKeyedArchiver", version: Int = 100_000, top: [ArchivedField], root: ArchivedValue?,
                objects: [ArchivedObject?], plist: PropertyListValue) {
        self.archiver = archiver
        self.version = version
        self.top = top
        self.root = root
        self.objects = objects
        self.plistSource = PlistSource(plist)
    }

    /// Reads an archive from bytes: a keyed archive in any property-list format, an NSArchiver
    /// typedstream (recognized by its header) or a compiled nib (by its magic `NIBArchive`), the
    /// last two read as the keyed archive of the same objects.
    public init(data: Data, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) {
        if NIBArchive.isNIBArchive(data) {
            let nib: NIBArchive
            do {
                nib = try NIBArchive(data: data, options: options.nibArchive)
            } catch {
                throw KeyedArchiveError(nibArchive: error)
            }
            try self.init(nibArchive: nib, options: options)
            return
        }
        if TypedStream.isTypedStream(data) {
            let stream: TypedStream
            do {
                stream = try TypedStream(data: data, options: options.typedStream)
            } catch {
                throw KeyedArchiveError(typedStream: error)
            }
            try self.init(typedStream: stream, options: options)
            return
        }
        // Binary archives are read with `$objects` kept flat; anything that way does not handle,
        // errors included, is read again below, which reports the error.
        if let archive = Self.readFlat(data, options: options) {
            self = archive
            return
        }
        let value: PropertyListValue
        do {
            value = try PropertyListReader(options: options.propertyList).read(data).value
        } catch {
            throw KeyedArchiveError(.propertyList, error.description, underlying: error)
        }
        try self.init(plist: value, options: options)
    }

    /// A binary archive decoded from a flat `$objects` table, or nil when it must be read the
    /// ordinary way. Its `plist` is read from `data` when asked for.
    package static func readFlat(_ data: Data, options: KeyedArchiveReadOptions) -> KeyedArchive? {
        guard let flat = BinaryPropertyListReader(options: options.propertyList).readFlatKeyedArchive(data, keepingValues: false) else { return nil }
        let top = PropertyListValue.dictionary(PropertyListDictionary(keys: flat.topKeys, values: flat.topValues))
        var decoding = KeyedArchiveDecoding(plist: top, options: options)
        guard var archive = try? decoding.decode(flat: flat.objects) else { return nil }
        archive.plistSource = PlistSource(DeferredPlist(data: data, options: options.propertyList))
        return archive
    }

    /// Decodes an archive from its property list.
    public init(plist: PropertyListValue, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) {
        var decoding = KeyedArchiveDecoding(plist: plist, options: options)
        self = try decoding.decode()
    }

    /// The object a value refers to, if it is a reference.
    public func object(_ value: ArchivedValue) -> ArchivedObject? {
        guard case .object(let uid) = value, uid < objects.count else { return nil }
        return objects[uid]
    }

    /// The root object, when the root is a reference.
    public var rootObject: ArchivedObject? { root.flatMap(object) }

    /// The decoded objects in UID order.
    public var decodedObjects: [ArchivedObject] { objects.compactMap { $0 } }

    /// Each class name, as written, with how many decoded objects have it.
    public var classCounts: [(name: String, count: Int)] {
        // Names in order of first appearance, counted by slot. Objects of one class share one
        // `ArchivedClass`, so most lookups are an identity check against the previous class.
        var names: [String] = []
        var counts: [Int] = []
        var slotsByName: [String: Int] = [:]
        var slotsByClass: [ObjectIdentifier: Int] = [:]
        // The classes met most recently, searched before hashing into `slotsByClass`.
        var recent: [(id: ObjectIdentifier, slot: Int)] = []
        var nextRecent = 0
        func slot(_ name: String) -> Int {
            if let known = slotsByName[name] { return known }
            names.append(name)
            counts.append(0)
            slotsByName[name] = names.count - 1
            return names.count - 1
        }
        // Each object is read in place: copying it out would retain and release its fields.
        objects.withUnsafeBufferPointer { buffer in
            for i in buffer.indices {
                let s: Int
                switch buffer[i]?.archivedClass {
                case .some(let archivedClass):
                    let id = ObjectIdentifier(archivedClass)
                    if let hit = recent.first(where: { $0.id == id }) {
                        s = hit.slot
                    } else {
                        if let known = slotsByClass[id] {
                            s = known
                        } else {
                            s = slot(archivedClass.name)
                            slotsByClass[id] = s
                        }
                        if recent.count < 8 {
                            recent.append((id, s))
                        } else {
                            recent[nextRecent] = (id, s)
                            nextRecent = (nextRecent + 1) % 8
                        }
                    }
                case .none:
                    guard let name = buffer[i]?.content.inlineClassName else { continue }
                    s = slot(name)
                }
                counts[s] += 1
            }
        }
        return zip(names, counts).map { ($0, $1) }
    }

    public static func == (a: KeyedArchive, b: KeyedArchive) -> Bool {
        a.archiver == b.archiver && a.version == b.version && a.top == b.top && a.root == b.root && a.objects == b.objects
            && a.plistSource == b.plistSource && a.typedStream == b.typedStream && a.nibArchive == b.nibArchive
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(archiver)
        hasher.combine(version)
        hasher.combine(top)
        hasher.combine(root)
        hasher.combine(objects)
        hasher.combine(plist)
    }

    /// Whether `data` looks like a keyed archive: a plist whose top level has `$archiver`.
    public static func isKeyedArchive(_ value: PropertyListValue) -> Bool {
        value.dictionaryValue?["$archiver"] != nil && value.dictionaryValue?["$objects"] != nil
    }
}
