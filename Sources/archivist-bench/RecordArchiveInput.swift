import FixtureSupport
import Foundation

/// The archive of issue 17: what a Python tool writes when it builds an NSKeyedArchiver
/// archive by hand and saves it with `plistlib` (Foundation's layout, plistlib's bytes).
///
/// An NSArray of `records` NSDictionary records of 8 keys: a name (NSString), an id (NSUUID),
/// a date (NSDate), a URL (NSURL with its relative string), a digest (NSData, inline), tags
/// (an NSArray of a shared word and a string of its own), a count and a score (NSNumber,
/// inline). 11 objects per record; the keys, the words and the class descriptions are shared,
/// as NSKeyedArchiver shares them.
///
/// With `emptiesAndNulls`, the shapes real archives hold besides: each record's tags end with
/// NSNull (one object, as NSKeyedArchiver archives the singleton), and two more keys hold an
/// empty NSArray of its own (`notes`) and nil (`parent`, `$null`).
enum RecordArchiveInput {
    static let keys = ["name", "id", "created", "url", "digest", "tags", "count", "score"]
    static let words = ["red", "green", "blue", "cyan", "magenta"]

    /// The archive's bytes and how many objects its `$objects` holds.
    static func make(records: Int, emptiesAndNulls: Bool = false) -> (data: Data, objects: Int) {
        typealias V = PlistlibLayoutWriter.Value
        var objects: [V] = [.string("$null")]
        func add(_ v: V) -> UInt64 {
            objects.append(v)
            return UInt64(objects.count - 1)
        }
        func describe(_ name: String) -> UInt64 {
            add(.dictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
        }
        let dictionaryClass = describe("NSDictionary")
        let arrayClass = describe("NSArray")
        let dateClass = describe("NSDate")
        let urlClass = describe("NSURL")
        let uuidClass = describe("NSUUID")
        let keyUIDs = (emptiesAndNulls ? keys + ["notes", "parent"] : keys).map { add(.string($0)) }
        let wordUIDs = words.map { add(.string($0)) }
        let nullObject = emptiesAndNulls ? add(.dictionary([("$class", .uid(describe("NSNull")))])) : 0
        var items: [V] = []
        items.reserveCapacity(records)
        var generator = SplitMix64(seed: 0x17)
        for i in 0..<records {
            let r = generator.next(), r2 = generator.next()
            let name = add(.string("record \(i)"))
            var uuid: [UInt8] = []
            for k in 0..<8 { uuid.append(UInt8(truncatingIfNeeded: r >> UInt64(k * 8))) }
            for k in 0..<8 { uuid.append(UInt8(truncatingIfNeeded: r2 >> UInt64(k * 8))) }
            let id = add(.dictionary([("NS.uuidbytes", .data(uuid)), ("$class", .uid(uuidClass))]))
            let created = add(.dictionary([("NS.time", .real(700_000_000 + Double(i) * 60.5)), ("$class", .uid(dateClass))]))
            let relative = add(.string("https://example.com/r/\(i)"))
            let url = add(.dictionary([("NS.base", .uid(0)), ("NS.relative", .uid(relative)), ("$class", .uid(urlClass))]))
            let digest = add(.data((0..<8).map { UInt8(truncatingIfNeeded: r >> UInt64($0 * 8)) }))
            let tag = add(.string("tag \(i)"))
            let tagUIDs: [V] = [.uid(wordUIDs[i % words.count]), .uid(tag)] + (emptiesAndNulls ? [.uid(nullObject)] : [])
            let tags = add(.dictionary([("NS.objects", .array(tagUIDs)), ("$class", .uid(arrayClass))]))
            let count = add(.integer(Int64(r % 100_000)))
            let score = add(.real(Double(r % 1_000_000) / 997))
            var values = [name, id, created, url, digest, tags, count, score]
            if emptiesAndNulls {
                values.append(add(.dictionary([("NS.objects", .array([])), ("$class", .uid(arrayClass))])))
                values.append(0)
            }
            let record = add(.dictionary([
                ("NS.keys", .array(keyUIDs.map { .uid($0) })),
                ("NS.objects", .array(values.map { .uid($0) })),
                ("$class", .uid(dictionaryClass)),
            ]))
            items.append(.uid(record))
        }
        let root = add(.dictionary([("NS.objects", .array(items)), ("$class", .uid(arrayClass))]))
        let data = PlistlibLayoutWriter.write(.dictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(100_000)),
            ("$top", .dictionary([("root", .uid(root))])),
            ("$objects", .array(objects)),
        ]))
        return (data, objects.count)
    }
}
