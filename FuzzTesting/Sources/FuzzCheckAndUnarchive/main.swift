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
/// decoded archive: it reads only archives that decode, and reports what `check` reports.
/// Any thrown error is a pass; a crash, hang, leak, large allocation or disagreement is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheckAndUnarchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let index = KeyedArchiveClassIndex(data: data)
    guard let archive = try? KeyedArchive(data: data) else {
        precondition(index == nil, "the class index read an archive that does not decode")
        return 0
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
        guard let payload = try? mapper.payload(of: archive) else { continue }
        _ = try? JSONPropertyListWriter().write(payload)
    }
    return 0
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzCheckAndUnarchive))
