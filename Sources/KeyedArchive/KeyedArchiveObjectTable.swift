import Foundation
import PropertyList

/// A binary keyed archive read and checked as `KeyedArchive(data:)` reads it, whose objects are
/// left in the flat table of `$objects` instead of being decoded one by one.
///
/// The streaming writers (`KeyedArchiveJSONExporter` for `inspect --format json`, the payload's
/// JSON for `unarchive --to json`) read a large archive from here: the classes are those the
/// decoder gives (`index`), and `Reader.content(of:)` gives what each object holds for the
/// layouts Apple writes of the common classes (strings, numbers, data and dates inline; NSArray,
/// NSSet, NSDictionary, NSNull, NSDate, NSURL and NSUUID objects), exactly as the decoder's
/// shortcuts read them.
/// Anything else is `.undecoded`, and the writer then works from the decoded `KeyedArchive`.
public struct KeyedArchiveObjectTable {
    /// The class of every object the decoder would decode.
    public let index: KeyedArchiveClassIndex
    /// `$archiver`.
    public let archiver: String
    /// `$top`, as `KeyedArchive.top` gives it.
    public let top: [ArchivedField]
    /// The root object, as `KeyedArchive.root` gives it.
    public let root: ArchivedValue?
    let decoding: KeyedArchiveDecoding
    let scalars: FlatScalarReader

    /// Reads `data` as `KeyedArchive(data:options:)` does; nil when that reads it another way
    /// (a format other than binary, a layout the flat scan does not take) or refuses it.
    public init?(data: Data, options: KeyedArchiveReadOptions = .default) {
        guard let flat = BinaryPropertyListReader(options: options.propertyList).readFlatKeyedArchive(data, keepingValues: false) else { return nil }
        let top = PropertyListValue.dictionary(PropertyListDictionary(keys: flat.topKeys, values: flat.topValues))
        var decoding = KeyedArchiveDecoding(plist: top, options: options)
        guard let (index, archiver, topFields) = try? decoding.classifyWithTop(flat: flat.objects) else { return nil }
        self.index = index
        self.archiver = archiver
        self.top = topFields
        self.root = KeyedArchiveDecoding.root(of: topFields, preferring: options.topKey)
        self.decoding = decoding
        self.scalars = flat.objects.scalars
    }

    /// The number of elements of `$objects`.
    public var count: Int { index.slots.count }

    /// Runs `body` with a reader of the objects, which reads scalars from the archive's bytes
    /// and must not be used after `body` returns.
    package func withReader<R, E: Error>(_ body: (inout Reader) throws(E) -> R) throws(E) -> R {
        try scalars.withCursor { (cursor) throws(E) -> R in
            var reader = Reader(decoding: decoding, slots: index.slots, cursor: cursor)
            return try body(&reader)
        }
    }

    /// What an object holds, for the layouts the decoder reads without its content decoders.
    package enum Content {
        /// Inline plist objects: read them with `Reader.element(_:)`.
        case string, number, data, date
        /// NSArray or NSMutableArray whose `NS.objects` holds references: at `Reader.uids[range]`.
        /// An empty range is an empty `NS.objects`, which the decoder keeps inline.
        case array(Range<Int>)
        /// NSSet or NSMutableSet, as `array`.
        case set(Range<Int>)
        /// NSDictionary or NSMutableDictionary whose `NS.keys` and `NS.objects` hold as many
        /// references (none: both empty, kept inline by the decoder).
        case dictionary(keys: Range<Int>, values: Range<Int>)
        /// NSNull.
        case null
        /// NSDate whose `NS.time` is a real.
        case dateObject(Date)
        /// NSURL with its `NS.relative` and its `NS.base` (or null).
        case url(base: Field, relative: Field)
        /// NSUUID whose `NS.uuidbytes` are 16 bytes inline.
        case uuid(UUID)
        /// Anything else: the decoded object says.
        case undecoded
        /// Not an object the decoder decodes (`$null`, a class description, an unreachable one).
        case notDecoded
    }

    /// A field's value, as the decoder makes it of an entry.
    package enum Field {
        /// UID 0.
        case null
        case object(Int)
        /// A scalar stored inline: the file's object at this index (`Reader.fileScalar(_:)`).
        case scalar(Int)
        /// A list of references, at `Reader.uids[range]`; an empty one is an empty array, which
        /// the decoder keeps inline.
        case references(Range<Int>)
        /// A collection that holds more than references: only the decoder reads it.
        case collection
    }

    /// Reads the objects of a `KeyedArchiveObjectTable`; see `withReader`.
    package struct Reader {
        let decoding: KeyedArchiveDecoding
        /// Per UID: the class slot of each decoded object, or an inline kind.
        package let slots: [Int32]
        var cursor: FlatScalarReader.Cursor
        /// UTF-8 of the last UTF-16 string read in place.
        var scratch: [UInt8] = []

        init(decoding: KeyedArchiveDecoding, slots: [Int32], cursor: FlatScalarReader.Cursor) {
            self.decoding = decoding
            self.slots = slots
            self.cursor = cursor
        }

        /// The UIDs that `.references` and `.array` ranges name.
        package var uids: [UInt32] { decoding.flatUIDs }

        /// The class of object `uid`, nil for inline objects and those not decoded.
        package func archivedClass(_ uid: Int) -> ArchivedClass? {
            let slot = slots[uid]
            return slot >= 0 ? decoding.classes[Int(slot)] : nil
        }

        /// Element `uid` of `$objects`, an inline object (`.string`, `.number`, `.data`, `.date`).
        package mutating func element(_ uid: Int) -> PropertyListValue {
            cursor.element(uid)
        }

        /// The file's object `index`, a scalar (`Field.scalar`).
        package mutating func fileScalar(_ index: Int) -> PropertyListValue {
            cursor.object(index)
        }

        /// Where the entries of object `uid`, a dictionary, are: `field(at:)` gives each.
        package func entries(of uid: Int) -> Range<Int> {
            Int(decoding.flatEntryStart[uid])..<Int(decoding.flatEntryStart[uid + 1])
        }

        /// Entry `index` as the decoder makes it a field, key unescaped, with the key's index among
        /// the archive's distinct keys; nil for `$class`, which is no field.
        package func field(at index: Int) -> (key: String, keyIndex: Int, value: Field)? {
            let entry = decoding.flatEntries[index]
            let key = Int(entry.key)
            guard !decoding.flatKeySkipped[key], let name = decoding.flatKeyFields[key] else { return nil }
            return (name, key, field(entry))
        }

        /// The slot of object `uid`'s class in `KeyedArchiveClassIndex.classes`, or a negative
        /// inline kind.
        package func classSlot(_ uid: Int) -> Int { Int(slots[uid]) }

        /// What an entry's value is as a field.
        @inline(__always)
        func field(_ entry: FlatEntry) -> Field {
            switch entry.kind {
            case .uid: entry.payload == 0 ? .null : .object(Int(truncatingIfNeeded: entry.payload))
            case .uids: .references(entry.uidRange)
            case .scalar: .scalar(Int(truncatingIfNeeded: entry.payload))
            case .value: .collection
            }
        }

        /// How many fields of object `uid` have the key `NS.objects`, and how many `NS.keys`.
        package func referenceListFieldCounts(_ uid: Int) -> (objects: Int, keys: Int) {
            var counts = (objects: 0, keys: 0)
            let start = Int(decoding.flatEntryStart[uid]), end = Int(decoding.flatEntryStart[uid + 1])
            for i in start..<end {
                let key = Int(decoding.flatEntries[i].key)
                guard !decoding.flatKeySkipped[key] else { continue }
                switch decoding.flatKeyRole[key] {
                case 0: counts.objects += 1
                case 1: counts.keys += 1
                default: break
                }
            }
            return counts
        }

        /// Whether object `uid` has an entry that holds a collection of more than references,
        /// whose field only the decoder makes.
        package func hasCollectionField(_ uid: Int) -> Bool {
            let start = Int(decoding.flatEntryStart[uid]), end = Int(decoding.flatEntryStart[uid + 1])
            for i in start..<end where decoding.flatEntries[i].kind == .value {
                let key = Int(decoding.flatEntries[i].key)
                if !decoding.flatKeySkipped[key] { return true }
            }
            return false
        }

        /// What object `uid` holds, as `KeyedArchiveDecoding.decodeFlatObject` reads it with the
        /// shortcuts of `ArchivedContentDecoder`, or `.undecoded` where it would use its decoders.
        package mutating func content(of uid: Int) -> Content {
            let slot = slots[uid]
            switch slot {
            case KeyedArchiveClassIndex.notDecoded: return .notDecoded
            case KeyedArchiveClassIndex.inlineString: return .string
            case KeyedArchiveClassIndex.inlineNumber: return .number
            case KeyedArchiveClassIndex.inlineData: return .data
            case KeyedArchiveClassIndex.inlineDate: return .date
            default: break
            }
            let shortcut = decoding.classShortcuts[Int(slot)]
            guard shortcut != .none else { return .undecoded }
            // The first field with each key the shortcuts read, as `FirstFields` finds them.
            var first: (objects: FlatEntry?, keys: FlatEntry?, time: FlatEntry?, relative: FlatEntry?, base: FlatEntry?, uuid: FlatEntry?)
            let start = Int(decoding.flatEntryStart[uid]), end = Int(decoding.flatEntryStart[uid + 1])
            for i in start..<end {
                let entry = decoding.flatEntries[i]
                let key = Int(entry.key)
                guard !decoding.flatKeySkipped[key] else { continue }
                switch decoding.flatKeyRole[key] {
                case 0: if first.objects == nil { first.objects = entry }
                case 1: if first.keys == nil { first.keys = entry }
                case 2: if first.time == nil { first.time = entry }
                case 3: if first.relative == nil { first.relative = entry }
                case 4: if first.base == nil { first.base = entry }
                case 5: if first.uuid == nil { first.uuid = entry }
                default: break
                }
            }
            switch shortcut {
            case .none:
                return .undecoded
            case .array:
                guard let objects = first.objects, objects.kind == .uids else { return .undecoded }
                return .array(objects.uidRange)
            case .set:
                guard let objects = first.objects, objects.kind == .uids else { return .undecoded }
                return .set(objects.uidRange)
            case .dictionary:
                guard let keys = first.keys, keys.kind == .uids, let objects = first.objects, objects.kind == .uids,
                      keys.uidRange.count == objects.uidRange.count else { return .undecoded }
                return .dictionary(keys: keys.uidRange, values: objects.uidRange)
            case .date:
                guard let time = first.time, time.kind == .scalar,
                      case .real(let seconds) = cursor.object(Int(truncatingIfNeeded: time.payload)) else { return .undecoded }
                return .dateObject(Date(timeIntervalSinceReferenceDate: seconds))
            case .url:
                guard let relative = first.relative else { return .undecoded }
                return .url(base: first.base.map(field) ?? .null, relative: field(relative))
            case .uuid:
                guard let bytes = first.uuid, bytes.kind == .scalar,
                      let uuid = cursor.withBytes(ofObject: Int(truncatingIfNeeded: bytes.payload), { raw -> UUID? in
                          guard raw.count == 16 else { return nil }
                          var u: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                          withUnsafeMutableBytes(of: &u) { $0.copyMemory(from: raw) }
                          return UUID(uuid: u)
                      }) ?? nil
                else { return .undecoded }
                return .uuid(uuid)
            case .null:
                return .null
            }
        }

        /// `body` with the UTF-8 of string element `uid` (`.string`), read in place; nil for
        /// anything else.
        package mutating func withUTF8<R>(ofElement uid: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
            guard let index = cursor.objectIndex(ofElement: uid) else { return nil }
            return cursor.withUTF8(ofObject: index, scratch: &scratch, body)
        }

        /// `body` with the UTF-8 of the string a field holds, as `string(_:)` finds it, read in
        /// place; nil when it holds no string it can tell.
        package mutating func withUTF8<R>(of field: Field, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
            switch field {
            case .scalar(let index):
                return cursor.withUTF8(ofObject: index, scratch: &scratch, body)
            case .object(let uid) where slots[uid] == KeyedArchiveClassIndex.inlineString:
                return withUTF8(ofElement: uid, body)
            default:
                return nil
            }
        }

        /// The string a field holds, as `KeyedArchive.string(_:)` finds it: inline, or an inline
        /// string object. Nil for anything else, which may still be a string object of a class
        /// (`content(of:)` is `.undecoded` for those).
        package mutating func string(_ field: Field) -> String? {
            switch field {
            case .scalar(let index):
                if case .string(let s) = cursor.object(index) { return s }
                return nil
            case .object(let uid) where slots[uid] == KeyedArchiveClassIndex.inlineString:
                if case .string(let s) = cursor.element(uid) { return s }
                return nil
            default:
                return nil
            }
        }
    }
}
