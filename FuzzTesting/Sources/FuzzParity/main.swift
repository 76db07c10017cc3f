import Foundation
#if canImport(Glibc)
import Glibc
#endif
import FuzzDriver
import PropertyList

/// libFuzzer entry point with both parsers in the loop: the same bytes to Core Foundation's
/// reader (`CFPropertyListCreateWithData`, as `PropertyListSerialization` calls it, in this
/// process) and to `PropertyListReader`; a difference in verdict, format or value that no row of
/// Tests/Parity/known-differences.tsv explains stops the run (docs/parity.md). The oracle and
/// the comparison are archivist-parity's own files (linked here).
///
/// A CF crash or hang on an input is a finding too: it stops the run like any crash, and the
/// input is kept as an artifact, to be checked with `archivist-parity --cf FILE`.
// The fuzz package cannot reach the package's system module, so it looks symbols up itself.
nonisolated(unsafe) let oracle = CoreFoundationOracle(lookup: { name in dlopen(nil, RTLD_NOW).flatMap { dlsym($0, name) } })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParity(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let oracle else { fatalError("Core Foundation's functions are not in this process") }
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let cf = bytes.withUnsafeBytes { oracle.read($0) }
    let ours = BeyondCoreFoundationCheck.coreFoundationOutcome(bytes)
    if case .unwarned(let what) = BeyondCoreFoundationCheck.verdict(bytes, coreFoundationMode: ours) {
        FileHandle.standardError.write(Data("archivist FuzzParity: the default reading departs from CF's mode silently: \(what)\n".utf8))
        abort()
    }
    switch (cf, ours) {
    case (.refused, .refused):
        return 0
    case (.accepted(let f1, let v1), .accepted(let f2, let v2)) where f1 == f2 && v1.canonicalBytes == v2.canonicalBytes:
        return 0
    case (.refused, .accepted(.json, _)):
        // Row json-is-read-last: CF reads no JSON; Archivist reads it after the formats CF reads.
        return 0
    case (.refused, .accepted) where declaresEncodingLinuxLacks(bytes):
        // Rows linux-lacks-macroman and euc-jp-linux.
        return 0
    default:
        var report = "archivist FuzzParity: Core Foundation and PropertyListReader differ\n"
        report += "  CF:        \(cf.summary)\n  Archivist: \(ours.summary)\n"
        if case .accepted(_, let a) = cf, case .accepted(_, let b) = ours, let at = ParityValue.firstDifference(cf: a, ours: b) {
            report += "  first difference: \(at)\n"
        }
        FileHandle.standardError.write(Data(report.utf8))
        abort()
    }
}

/// Whether an XML declaration at the start names an encoding that Foundation on Linux reads
/// differently from Apple's platforms (MacRoman, which Linux CF has no converter for; EUC-JP,
/// whose table differs): the known-differences rows for those.
func declaresEncodingLinuxLacks(_ bytes: [UInt8]) -> Bool {
    let head = String(decoding: bytes.prefix(200), as: UTF8.self).lowercased()
    guard head.hasPrefix("<?xml"), let declaration = head.range(of: "?>").map({ head[..<$0.lowerBound] }),
          let at = declaration.range(of: "encoding=") else { return false }
    let name = declaration[at.upperBound...].drop(while: { $0 == "\"" || $0 == "'" }).prefix(while: { $0 != "\"" && $0 != "'" })
    return ["macintosh", "x-mac-roman", "euc-jp"].contains(String(name))
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzParity))
