import ArchivePayload
import Foundation
import FuzzDriver
import KeyedArchive
import PropertyList

/// libFuzzer entry point: what `archivist check` and `archivist unarchive --to json` do with
/// a file: bytes → `KeyedArchive` → `AllowListChecker().check` → `PayloadMapper().payload` →
/// `JSONPropertyListWriter().write`, once as is and once with `expandsNestedPayloads`.
/// Any thrown error is a pass; a crash, hang, leak or large allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheckAndUnarchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    guard let archive = try? KeyedArchive(data: data) else { return 0 }
    _ = AllowListChecker().check(archive)
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
