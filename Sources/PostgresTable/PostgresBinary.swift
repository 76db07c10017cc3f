import Foundation

/// PostgreSQL's binary wire encodings (network byte order).
package enum PostgresBinary {
    package static func int64(_ value: Int64) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    package static func int32(_ value: Int32) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    /// `array_send`'s layout: dimensions, a has-nulls flag, the element type, then for the one
    /// dimension its length and lower bound (1), then each element as a length (-1 for NULL)
    /// and its bytes.
    static func array(_ elements: [Data?], elementType: UInt32) -> Data {
        var size = 20
        for element in elements { size += 4 + (element?.count ?? 0) }
        var out = Data(capacity: size)
        func append(_ v: Int32) { withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) } }
        append(1)
        append(elements.contains(where: { $0 == nil }) ? 1 : 0)
        append(Int32(bitPattern: elementType))
        append(Int32(clamping: elements.count))
        append(1)
        for element in elements {
            if let element {
                append(Int32(clamping: element.count))
                out.append(element)
            } else {
                append(-1)
            }
        }
        return out
    }
}
