import ArchiveReports
import Foundation
import FuzzDriver
import KeyedArchive

/// libFuzzer entry point: bytes in any plist format → `KeyedArchive(data:)` with the default
/// limits (structure validation and the typed object graph), then what `inspect` does with
/// it: the tree printer, the JSON exporter (full and compact) and the Graphviz exporter.
/// Any thrown error is a pass; a crash, hang, leak or large allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedArchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    guard let archive = try? KeyedArchive(data: data) else { return 0 }
    _ = KeyedArchiveTreePrinter().render(archive)
    _ = try? KeyedArchiveJSONExporter().write(archive)
    _ = try? KeyedArchiveJSONExporter(prettyPrinted: false, omitsDefaultMembers: true).write(archive)
    _ = KeyedArchiveDotExporter().render(archive)
    return 0
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzKeyedArchive))
