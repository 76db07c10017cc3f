import Foundation
import FuzzDriver
import PropertyList
import PropertyListXML

/// libFuzzer entry point: bytes → `XMLPropertyListReader` (libxml2) with the default limits.
/// Any thrown error is a pass; a crash, hang, leak or large allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPropertyList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    _ = try? XMLPropertyListReader().read(data)
    return 0
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzXMLPropertyList))
