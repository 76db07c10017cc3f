import ArchiveReports
import Foundation
import Testing
@testable import ArchivePayload
@testable import KeyedArchive
import PlistLayoutFixtures
import PropertyList

/// `check`, `unarchive --to json` and `inspect --format json` of an archive whose writer
/// shares identical collections (one `NS.keys` array for all records, as CPython's plistlib
/// writes it) give what they give for the same archive in CF's layout, from the object table
/// (the flat path) in both.
@Suite struct SharedLayoutPayloadTests {
    /// Records of the common classes (the benchmark's shape), in CF's layout.
    static func records(_ count: Int) throws -> Data {
        var b = KeyedArchiveBuilder()
        let keys = ["name", "id", "created", "url", "digest", "tags", "count", "score"].map { b.string($0) }
        let words = ["red", "green", "blue"].map { b.string($0) }
        var items: [ArchivedValue] = []
        for i in 0..<count {
            items.append(b.dictionary(keys: keys, values: [
                b.string("record \(i) é"),
                b.uuid(UUID(uuid: (UInt8(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(i % 7)))),
                b.date(Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(i) * 60.5)),
                b.url("https://example.com/r/\(i)"),
                b.data(Data([UInt8(i), 0xFF, 0x10])),
                b.array([words[i % 3], b.string("tag \(i)")]),
                b.number(.integer(PropertyListInteger(i * 7))),
                b.number(.real(Double(i) / 997)),
            ]))
        }
        let root = b.array(items)
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    static func layouts() throws -> [(String, Data)] {
        let apple = try records(40)
        let plist = try PropertyListReader().read(apple).value
        return [("CF", apple), ("shared", SharedLayoutWriter().write(plist)), ("shared, 3-byte references", SharedLayoutWriter(referenceSize: 3).write(plist))]
    }

    static func inspectJSON(_ data: Data) throws -> (json: Data, fromTable: Bool) {
        let inspection = try #require(KeyedArchiveInspection(format: .json))
        var read = try inspection.read(data)
        var out = Data()
        try inspection.write(&read, to: { out.append(contentsOf: $0) })
        return (out, read.objectTable != nil && read.archive == nil)
    }

    @Test func checkGivesTheSameReportFromTheClassIndexInEveryLayout() throws {
        let layouts = try Self.layouts()
        let checker = AllowListChecker(allowList: .transformerDefault)
        let reports = try layouts.map { (label, data) in
            let check = try checker.check(data: data)
            #expect(check.classIndex != nil && check.archive == nil, "\(label)")
            return check.jsonValue(file: "f")
        }
        #expect(reports.allSatisfy { $0 == reports[0] })
        // Refused: a list without NSURL names the same objects in each layout.
        let strict = AllowListChecker(allowList: AllowList(classes: ["NSArray", "NSDictionary", "NSString", "NSNumber", "NSData", "NSDate", "NSUUID"]))
        let refusals = try layouts.map { try strict.check(data: $0.1).jsonValue(file: "f") }
        #expect(refusals.allSatisfy { $0 == refusals[0] })
        #expect(refusals[0] != reports[0])
    }

    @Test func unarchiveWritesTheSameJSONFromTheTableInEveryLayout() throws {
        let layouts = try Self.layouts()
        let unarchiver = ArchiveUnarchiver()
        let outputs = try layouts.map { (label, data) in
            let result = try unarchiver.json(of: data)
            #expect(result.objectTable != nil && result.archive == nil, "\(label)")
            return result.value
        }
        #expect(outputs.allSatisfy { $0 == outputs[0] })
        for (label, data) in layouts {
            let (taken, differences) = try PayloadTableReference.compare(data)
            #expect(taken && differences.isEmpty, "\(label): \(differences)")
        }
    }

    @Test func inspectWritesTheSameJSONFromTheTableInEveryLayout() throws {
        let outputs = try Self.layouts().map { (label, data) in
            let (json, fromTable) = try Self.inspectJSON(data)
            #expect(fromTable, "\(label)")
            return json
        }
        #expect(outputs.allSatisfy { $0 == outputs[0] })
        #expect(outputs[0].count > 1000, "\(String(decoding: outputs[0], as: UTF8.self))")
    }
}
