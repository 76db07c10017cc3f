import Foundation
import KeyedArchive
import PlistLayoutFixtures
import PropertyList
import Testing

/// `check`, `unarchive --to json` and `inspect --format json` as a user runs them on an
/// archive whose writer shares identical collections (one `NS.keys` array for all records, as
/// CPython's plistlib writes it): the same output, byte for byte, as for the same archive in
/// NSKeyedArchiver's layout; and sharing that expands past the limits is refused by each.
@Suite struct SharedLayoutCLITests {
    /// Records of the common classes, in CF's layout.
    static func records() throws -> Data {
        var b = KeyedArchiveBuilder()
        let keys = ["name", "created", "url", "tags", "count"].map { b.string($0) }
        var items: [ArchivedValue] = []
        for i in 0..<25 {
            items.append(b.dictionary(keys: keys, values: [
                b.string("record \(i)"),
                b.date(Date(timeIntervalSinceReferenceDate: Double(i) * 60.5)),
                b.url("https://example.com/r/\(i)"),
                b.array([b.string("tag \(i)"), b.data(Data([UInt8(i)]))]),
                b.number(.integer(PropertyListInteger(i))),
            ]))
        }
        let root = b.array(items)
        return try KeyedArchiveWriter().write(b.archive(root: root))
    }

    /// `arguments` run on each file, `FILE` standing for it, with its path replaced by `FILE`
    /// in what it writes.
    static func outputs(_ arguments: [String], files: [String]) throws -> [(status: Int32, out: String)] {
        try files.map { file in
            let result = try ArchivistProcess.run(arguments.map { $0 == "FILE" ? file : $0 })
            return (result.status, (result.out + result.err).replacingOccurrences(of: file, with: "FILE"))
        }
    }

    @Test func checkUnarchiveAndInspectSayTheSameOfBothLayouts() throws {
        let apple = try Self.records()
        let shared = SharedLayoutWriter().write(try PropertyListReader().read(apple).value)
        #expect(shared.count < apple.count)
        let files = [ArchivistProcess.temporaryFile("apple.archive"), ArchivistProcess.temporaryFile("shared.archive")]
        try apple.write(to: URL(fileURLWithPath: files[0]))
        try shared.write(to: URL(fileURLWithPath: files[1]))
        for arguments in [["check", "FILE"], ["check", "FILE", "--format", "json"], ["check", "FILE", "--only", "NSArray,NSDictionary"],
                          ["unarchive", "FILE", "--to", "json"], ["inspect", "FILE", "--format", "json"]] {
            let results = try Self.outputs(arguments, files: files)
            #expect(results[0].out.count > 20, "\(arguments): \(results[0].out)")
            #expect(results[0].status == results[1].status && results[0].out == results[1].out, "\(arguments)")
        }
    }

    @Test func sharingPastTheExpansionLimitIsRefusedByEachVerb() throws {
        func dictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
            .dictionary(PropertyListDictionary(entries.map { (.string($0.0), $0.1) }))
        }
        let n = 3_000
        let uids = PropertyListValue.array(Array(repeating: .uid(1), count: n))
        let arrayClass = dictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))])
        let elements = [.string("$null"), arrayClass]
            + (0..<n).map { dictionary([("NS.objects", uids), ("$class", .uid(1)), ("n", .integer(PropertyListInteger($0)))]) }
        let plist = dictionary([("$archiver", .string("NSKeyedArchiver")), ("$version", .integer(PropertyListInteger(100_000))),
                                ("$top", dictionary([("root", .uid(2))])), ("$objects", .array(elements))])
        let file = ArchivistProcess.temporaryFile("exploding.archive")
        try SharedLayoutWriter().write(plist).write(to: URL(fileURLWithPath: file))
        for arguments in [["check", file], ["unarchive", file, "--to", "json"], ["inspect", file, "--format", "json"]] {
            let result = try ArchivistProcess.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.err.contains("expansion limit"), "\(arguments): \(result.err)")
        }
    }
}
