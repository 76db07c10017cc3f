import Foundation
import PropertyList

/// An NSKeyedArchiver archive, validated and decoded into a graph of typed objects, without
/// instantiating any class.
///
/// Objects are kept by UID and refer to each other by UID, exactly as the archive does: an object
/// referenced twice is one object, and a cycle is a reference back to an ancestor. Every object
/// reachable from `$top` is decoded; `plist` keeps the archive as read, so every byte stays
/// accounted for.
public struct KeyedArchive: Sendable, Hashable {
    /// `$archiver`: always "NSKeyedArchiver" for an archive we accept.
    public var archiver: String
    /// `$version`: 100000.
    public var version: Int
    /// `$top`, in the order written.
    public var top: [ArchivedField]
    /// The root object: the `$top` entry named by `KeyedArchiveReadOptions.topKey` (`root`), or
    /// else the only entry, or else `$0`. Nil when `$top` names none of these; every `$top`
    /// entry is decoded all the same.
    public var root: ArchivedValue?
    /// Decoded objects by UID. Class descriptions, `$null` and unreachable entries are nil.
    public var objects: [ArchivedObject?]
    /// The archive as a property list.
    public var plist: PropertyListValue

    public init(archiver: String = "NSKeyedArchiver", version: Int = 100_000, top: [ArchivedField], root: ArchivedValue?,
                objects: [ArchivedObject?], plist: PropertyListValue) {
        self.archiver = archiver
        self.version = version
        self.top = top
        self.root = root
        self.objects = objects
        self.plist = plist
    }

    /// Reads an archive from bytes in any property-list format.
    public init(data: Data, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) {
        let value: PropertyListValue
        do {
            value = try PropertyListReader(options: options.propertyList).read(data).value
        } catch {
            throw KeyedArchiveError(.propertyList, error.description, underlying: error)
        }
        try self.init(plist: value, options: options)
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
        var counts: [String: Int] = [:]
        var order: [String] = []
        for object in decodedObjects {
            let name = object.className
            if counts[name] == nil { order.append(name) }
            counts[name, default: 0] += 1
        }
        return order.map { ($0, counts[$0] ?? 0) }
    }

    /// Whether `data` looks like a keyed archive: a plist whose top level has `$archiver`.
    public static func isKeyedArchive(_ value: PropertyListValue) -> Bool {
        value.dictionaryValue?["$archiver"] != nil && value.dictionaryValue?["$objects"] != nil
    }
}
