import Foundation
import PropertyList

/// The class of every object an archive decodes, read without decoding the objects.
///
/// This is what an allow-list check and a class count need, at a fraction of the time and
/// memory of `KeyedArchive(data:)`: a binary archive is scanned flat and walked from `$top`
/// exactly as the decoder walks it, with the same checks, but no object, field or content is
/// built. Objects are the ones `KeyedArchive.objects` would hold, with the same classes.
public struct KeyedArchiveClassIndex: Sendable {
    /// The class descriptions met, in the order first read.
    public let classes: [ArchivedClass]
    /// Per UID: the index in `classes` of the object's class, an inline kind (`inlineString`…),
    /// or `notDecoded`.
    package let slots: [Int32]
    /// How many objects are decoded: `KeyedArchive.decodedObjects.count`.
    public let objectCount: Int

    package static let notDecoded: Int32 = -1
    package static let inlineString: Int32 = -2
    package static let inlineNumber: Int32 = -3
    package static let inlineData: Int32 = -4
    package static let inlineDate: Int32 = -5

    /// The class name an inline slot stands for, as `ArchivedContent.inlineClassName` gives it.
    package static func inlineClassName(_ slot: Int32) -> String {
        switch slot {
        case inlineString: "NSString"
        case inlineNumber: "NSNumber"
        case inlineData: "NSData"
        default: "NSDate"
        }
    }

    /// Reads the classes of a binary archive's objects; nil when `KeyedArchive(data:)` must
    /// read it to say what it holds: a format other than binary, a layout the flat scan does
    /// not take, or an archive that does not decode (its error comes from `KeyedArchive(data:)`).
    public init?(data: Data, options: KeyedArchiveReadOptions = .default) {
        guard let flat = BinaryPropertyListReader(options: options.propertyList).readFlatKeyedArchive(data, keepingValues: false) else { return nil }
        let top = PropertyListValue.dictionary(PropertyListDictionary(keys: flat.topKeys, values: flat.topValues))
        var decoding = KeyedArchiveDecoding(plist: top, options: options)
        guard let index = try? decoding.classify(flat: flat.objects) else { return nil }
        self = index
    }

    init(classes: [ArchivedClass], slots: [Int32], objectCount: Int) {
        self.classes = classes
        self.slots = slots
        self.objectCount = objectCount
    }

    /// Calls `body` with each decoded object's UID and class, in UID order: the class
    /// description, or nil and the plist type's class name for an inline object.
    public func forEachObject(_ body: (_ uid: Int, _ archivedClass: ArchivedClass?, _ inlineClassName: String?) throws -> Void) rethrows {
        for uid in slots.indices {
            let slot = slots[uid]
            if slot >= 0 {
                try body(uid, classes[Int(slot)], nil)
            } else if slot != Self.notDecoded {
                try body(uid, nil, Self.inlineClassName(slot))
            }
        }
    }

    /// Each class name, as written, with how many decoded objects have it, in the order of the
    /// first object of each: `KeyedArchive.classCounts`.
    public var classCounts: [(name: String, count: Int)] {
        var names: [String] = []
        var counts: [Int] = []
        var slotsByName: [String: Int] = [:]
        // Per class description and per inline kind, its name's slot, once found.
        var byClass = [Int](repeating: -1, count: classes.count)
        var byInline = [Int](repeating: -1, count: 4)
        for slot in slots where slot != Self.notDecoded {
            let name: String
            let known: Int
            if slot >= 0 {
                known = byClass[Int(slot)]
                name = classes[Int(slot)].name
            } else {
                known = byInline[Int(-slot - 2)]
                name = Self.inlineClassName(slot)
            }
            if known >= 0 {
                counts[known] += 1
                continue
            }
            let found: Int
            if let existing = slotsByName[name] {
                found = existing
            } else {
                found = names.count
                names.append(name)
                counts.append(0)
                slotsByName[name] = found
            }
            if slot >= 0 { byClass[Int(slot)] = found } else { byInline[Int(-slot - 2)] = found }
            counts[found] += 1
        }
        return zip(names, counts).map { ($0, $1) }
    }
}
