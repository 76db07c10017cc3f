import Foundation
import ArchiveReports
import FuzzDriver
import KeyedArchive
import NIBArchive

/// libFuzzer entry point: bytes → `NIBArchive(data:)` with the default limits (header, tables,
/// indexes), then `KeyedArchive(nibArchive:)` (the mapping onto a keyed archive and its
/// decoding) and what `inspect` does with it: the tree printer with nested payloads expanded
/// (nibs inside data), the JSON exporter and the Graphviz exporter. Any thrown error is a pass;
/// a crash, hang, leak or large allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNIBArchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var data = start.map { Data(bytes: $0, count: count) } ?? Data()
    // Seeds without the magic still reach the tables.
    if !NIBArchive.isNIBArchive(data) { data = Data("NIBArchive".utf8) + data }
    guard let nib = try? NIBArchive(data: data) else { return 0 }
    _ = nib.classCounts
    guard let archive = try? KeyedArchive(nibArchive: nib) else { return 0 }
    let nested = NestedPayloadOptions(expands: true, readOptions: .default)
    _ = KeyedArchiveTreePrinter(nested: nested).render(archive)
    _ = try? KeyedArchiveJSONExporter(nested: nested).write(archive)
    _ = KeyedArchiveDotExporter().render(archive)
    return 0
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzNIBArchive))
