import Foundation

/// Writes binary property lists (`bplist00`) laid out as CF writes them.
///
/// Two passes: the first assigns object indexes depth-first, uniquing equal scalars (strings,
/// numbers, dates, data, UIDs) so each is stored once; the second writes the objects with the
/// smallest reference and offset widths among 1, 2, 4 and 8 bytes, the widths CF itself uses
/// and every reader supports.
public struct BinaryPropertyListWriter: Sendable {
    public init() {}

    /// Serializes `value`. Every `PropertyListValue` can be written in binary form.
    public func write(_ value: PropertyListValue) -> Data {
        var flattener = BinaryPropertyListFlattener()
        flattener.flatten(value)
        return flattener.serialize()
    }
}
