import ArchivePayload
import Foundation
import FuzzDriver
import KeyedArchive
import PropertyList

/// libFuzzer entry point: what `archivist check` and `archivist unarchive --to json` do with
/// a file: bytes → `KeyedArchiveClassIndex` → `AllowListChecker().acceptedReport` (check's
/// quick path, which builds no object), and bytes → `KeyedArchive` →
/// `AllowListChecker().check` → `PayloadMapper().payload` → `JSONPropertyListWriter().write`,
/// once as is and once with `expandsNestedPayloads`. The quick path must agree with the
/// decoded archive: it reads only archives that decode, and reports what `check` reports. So
/// must the writers that read an archive's object table without decoding it
/// (`KeyedArchiveObjectTable`): `unarchive --to json`'s payload and `inspect --format json`
/// give the decoded archive's bytes whenever they take it.
/// Any thrown error is a pass; a crash, hang, leak, large allocation or disagreement is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheckAndUnarchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let index = KeyedArchiveClassIndex(data: data)
    let table = KeyedArchiveObjectTable(data: data)
    guard let archive = try? KeyedArchive(data: data) else {
        precondition(index == nil, "the class index read an archive that does not decode")
        precondition(table == nil, "the object table read an archive that does not decode")
        return 0
    }
    if let table {
        let exporter = KeyedArchiveJSONExporter(prettyPrinted: false, omitsDefaultMembers: true)
        var fromTable = Data()
        if (try? exporter.write(table, chunkSize: 4096) { fromTable.append(contentsOf: $0) }) == true {
            precondition(fromTable == (try? exporter.write(archive)), "inspect's JSON from the object table differs")
        }
    }
    let report = AllowListChecker().check(archive)
    if let index {
        precondition(index.objectCount == archive.decodedObjects.count, "the class index counts other objects")
        if let quick = AllowListChecker().acceptedReport(index) {
            precondition(quick == report, "the class index gives another report")
        }
    }
    for expands in [false, true] {
        let mapper = PayloadMapper(options: PayloadOptions(expandsNestedPayloads: expands))
        if let table {
            let fromTable = mapper.json(of: table)
            if let fromTable {
                precondition(fromTable == (try? mapper.json(of: archive)), "the payload's JSON from the object table differs")
            }
            // The same walk handed on in chunks (`unarchive --to json -o FILE`): the same bytes,
            // or nothing where it gives nothing.
            var streamed = Data()
            let took = mapper.writeJSON(of: table, chunkSize: 64) { streamed.append(contentsOf: $0) }
            precondition(took == (fromTable != nil) && (!took || streamed == fromTable), "the payload's JSON handed on in chunks differs")
        }
        guard let payload = try? mapper.payload(of: archive) else { continue }
        _ = try? JSONPropertyListWriter().write(payload)
    }
    return 0
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzCheckAndUnarchive))
