import Foundation
package import SystemInterface

/// A file beside its destination takes positioned writes (`write(_:at:)`); any other output
/// fails on the first.
extension OutputSink: PositionedOutput {}

extension BinaryPropertyListConverter {
    /// Writes the binary property list `data` as XML or binary (`format`) into `sink`: into a
    /// file beside its destination as it is produced (binary a few megabytes at a time, its
    /// references filled in afterwards; XML with no writer thread beside its own when it is
    /// written on several), to any other output once whole. False when the format is another
    /// or the walk does not take the file: `sink` may then hold part of it, for the caller to
    /// abandon before reading the value and writing it the ordinary way, which says why.
    package func write(_ data: Data, as format: PropertyListFormat, into sink: OutputSink) -> Bool {
        guard format == .xml || format == .binary else { return false }
        if sink.isTemporaryFile {
            // The disk works beside the converter; XML's threads keep the cores.
            if format == .xml, mayWriteXMLOnSeveralThreads(data) { sink.writesPiecesInBackground = false }
            return format == .xml ? transcodeXML(data) { sink.write($0) } : transcodeBinary(data, into: sink)
        }
        guard let whole = format == .xml ? transcodedXML(data) : transcodedBinary(data) else { return false }
        sink.write(whole)
        return true
    }
}
