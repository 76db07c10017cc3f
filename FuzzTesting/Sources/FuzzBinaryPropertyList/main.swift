import Foundation
import FuzzDriver
import PropertyList

/// libFuzzer entry point: bytes → `BinaryPropertyListReader` with the default limits (`read`,
/// and `validate`, which must agree with it), `BinaryPropertyListConverter` (whose XML and binary
/// must be the writers' bytes for the value read whenever it takes the file, XML written by one
/// thread and by two in pieces alike, binary with uniquing and beside `DistinctScalarCheck`
/// alike, and handed on to a file as it is laid out), then
/// what `print` and `convert` do with a value read (pretty printer, binary, XML and JSON
/// writers), since shared references can make a small file stand for a large tree.
/// Any thrown error is a pass; a crash, hang, leak or large allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPropertyList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    // `validate` (what `lint` runs) must stop at the error `read` stops at, or pass with it.
    var readError: PropertyListError?
    var validationError: PropertyListError?
    var read: PropertyListValue?
    do throws(PropertyListError) { read = try BinaryPropertyListReader().read(data) } catch { readError = error }
    do throws(PropertyListError) { try BinaryPropertyListReader().validate(data) } catch { validationError = error }
    precondition(readError == validationError, "validate and read disagree: \(String(describing: readError)) vs \(String(describing: validationError))")
    let transcodedXML = BinaryPropertyListConverter().transcodedXML(data)
    let transcodedBinary = BinaryPropertyListConverter().transcodedBinary(data)
    let threaded = BinaryPropertyListConverter(workers: 2, minimumBytesForWorkers: 0)
    let xmlInPieces = threaded.transcodedXML(data)
    precondition(transcodedXML == nil || xmlInPieces == transcodedXML, "XML written in pieces differs from one walk's, or was refused")
    let binaryBesideCheck = threaded.transcodedBinary(data)
    precondition(binaryBesideCheck == transcodedBinary, "binary written beside the scalar check differs from the uniquing walk's, or only one took the file")
    // Laid out into a file as it goes (every 16 bytes, so that small inputs too have references
    // filled in after their collection was handed on), with uniquing and beside the check.
    for converter in [BinaryPropertyListConverter(), threaded] {
        let file = FileInMemory()
        let took = converter.transcodeBinary(data, into: file, handingOnEvery: 16)
        precondition(took == (transcodedBinary != nil), "binary handed on as it is laid out took a file one walk does not, or the reverse")
        if took { precondition(Data(file.bytes) == transcodedBinary, "binary handed on as it is laid out differs from the walk's") }
    }
    guard let value = read else {
        precondition(transcodedXML == nil && transcodedBinary == nil && xmlInPieces == nil,
                     "the converter took a file the reader refuses: \(String(describing: readError))")
        return 0
    }
    _ = PropertyListPrettyPrinter().render(value)
    let binary = BinaryPropertyListWriter().write(value)
    let xml = try? XMLPropertyListWriter().write(value)
    if let transcodedBinary { precondition(transcodedBinary == binary, "the converter's binary differs from the writer's") }
    if let transcodedXML { precondition(transcodedXML == xml, "the converter's XML differs from the writer's") }
    if let xmlInPieces { precondition(xmlInPieces == xml, "the XML written in pieces differs from the writer's") }
    _ = try? JSONPropertyListWriter().write(value)
    return 0
}

/// What a file would hold after `transcodeBinary(_:into:)`'s positioned writes.
final class FileInMemory: PositionedOutput {
    var bytes: [UInt8] = []

    func write(_ chunk: UnsafeRawBufferPointer, at offset: Int) {
        if bytes.count < offset + chunk.count { bytes.append(contentsOf: repeatElement(0, count: offset + chunk.count - bytes.count)) }
        bytes.replaceSubrange(offset..<offset + chunk.count, with: chunk)
    }

    func discardWritten() { bytes = [] }
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzBinaryPropertyList))
