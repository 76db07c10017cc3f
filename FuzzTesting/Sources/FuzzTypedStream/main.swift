import ArchivePayload
import ArchiveReports
import Foundation
import FuzzDriver
import KeyedArchive
import TypedStream

/// libFuzzer entry point: bytes → the compact inspect JSON and the unarchive JSON, as the direct
/// read of a stream of value classes gives them, held to the decoded archive's; then
/// `TypedStream(data:)` with the default limits; when they read,
/// the keyed archive of the same objects (`KeyedArchive(typedStream:)`, held to the one its keyed
/// form gives, `KeyedArchive(keyedFormOf:)`), what `inspect` does
/// with it (tree, JSON, DOT), the allow-list check, the payload and the keyed rewrite read back.
/// Inputs that do not start with a typedstream header are given one, so that every run reaches
/// the reader. Any thrown error is a pass; a crash, hang, leak or large allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTypedStream(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var data = start.map { Data(bytes: $0, count: count) } ?? Data()
    if !TypedStream.isTypedStream(data) {
        // The first byte picks the byte order; the rest follow a version-1000 header.
        let big = data.first.map { $0 & 1 == 1 } ?? false
        data = Data([4, 11] + Array((big ? "typedstream" : "streamtyped").utf8) + (big ? [0x81, 0x03, 0xE8] : [0x81, 0xE8, 0x03])) + data.dropFirst()
    }
    // What `inspect --format json` and `unarchive --to json` write, which read a stream of
    // Foundation's value classes straight from its bytes (`TypedStreamDirectReader`), held to
    // the JSON of the archive `KeyedArchive(data:)` decodes: the same bytes, or both failing.
    let ordinary = try? KeyedArchive(data: data)
    if let inspection = KeyedArchiveInspection(format: .json) {
        var inspected: Data?
        if var read = try? inspection.read(data) {
            var out = Data()
            if (try? inspection.write(&read) { out.append(contentsOf: $0) }) != nil { inspected = out }
        }
        var decoded: Data?
        if let ordinary {
            var out = Data()
            let exporter = KeyedArchiveJSONExporter(prettyPrinted: false, omitsDefaultMembers: true)
            if (try? exporter.write(ordinary) { out.append(contentsOf: $0) }) != nil { decoded = out }
        }
        if inspected != decoded { fatalError("inspect's JSON of a typedstream is not the JSON of its decoded archive") }
    }
    let unarchived = try? ArchiveUnarchiver(allowList: nil).json(of: data).value
    if unarchived != ordinary.flatMap({ try? PayloadMapper().json(of: $0) }) {
        fatalError("unarchive's JSON of a typedstream is not the payload of its decoded archive")
    }
    guard let stream = try? TypedStream(data: data) else { return 0 }
    _ = stream.classCounts
    // The objects decoded straight from the stream where they can be, and through the keyed form
    // otherwise: the two must give the same archive, or fail alike.
    let keyedForm = try? KeyedArchive(keyedFormOf: stream)
    let direct = try? KeyedArchive(typedStream: stream)
    // Compared as their compact JSON and their tree, which spell every object, field and value
    // (a NaN, which no `==` holds equal, included). The JSON with every member would add only
    // the stream's own groups, the same stream for both, and costs seconds under the sanitizers.
    func drawn(_ archive: KeyedArchive?) -> (json: Data?, tree: String)? {
        archive.map { (try? KeyedArchiveJSONExporter(prettyPrinted: false, omitsDefaultMembers: true).write($0), KeyedArchiveTreePrinter().render($0)) }
    }
    let (directDrawn, keyedDrawn) = (drawn(direct), drawn(keyedForm))
    if directDrawn?.json != keyedDrawn?.json || directDrawn?.tree != keyedDrawn?.tree || (direct == nil) != (keyedForm == nil) {
        fatalError("a typedstream decoded straight from the stream is not the archive its keyed form gives")
    }
    guard let archive = direct else { return 0 }
    _ = KeyedArchiveDotExporter().render(archive)
    _ = AllowListChecker().check(archive)
    _ = try? PayloadMapper().payload(of: archive)
    if let keyed = try? KeyedArchiveWriter().write(archive), let back = try? KeyedArchive(data: keyed) {
        // The keyed form must read back as the same objects.
        if !archive.isEquivalent(to: back) { fatalError("the keyed rewrite of a typedstream does not read back as its objects") }
    }
    return 0
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzTypedStream))
