/// A file a writer lays out as it goes: bytes are written at offsets, and a place written once
/// may be written again later (`BinaryPropertyListConverter.transcodeBinary(_:into:handingOnEvery:)`
/// fills in a collection's references after handing the collection on).
///
/// The file holds, at each offset, the bytes written there last. Writes never throw: an output
/// keeps its first failure and reports it when it is committed, as the CLI's output does.
public protocol PositionedOutput: AnyObject {
    /// Writes `bytes` at `offset`, over whatever is there; past the end, the file grows.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int)
    /// Drops everything written: the writer starts the file again.
    func discardWritten()
}
