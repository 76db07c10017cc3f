import Foundation

extension BinaryPropertyListParser {
    /// The index of the object at `components`, following only the objects on the way: each
    /// dictionary's keys are read and compared, each array's reference picked by index. Nil
    /// when a component names nothing.
    ///
    /// With `checksOffsetsOnUse`, nothing else of the file is looked at, which is what makes a
    /// lookup in a large file cost next to nothing.
    mutating func lookUp(_ components: [String]) throws(PropertyListError) -> Int? {
        var index = trailer.topObject
        if checksOffsetsOnUse { try checkOffset(of: index) }
        for component in components {
            let start = offset(index)
            let marker = bytes[start]
            switch marker >> 4 {
            case 0xD:
                let (count, body) = try count(Int(marker & 0x0F), at: start, index: index)
                let (pairs, overflow) = count.multipliedReportingOverflow(by: 2)
                guard !overflow, pairs <= (trailer.offsetTableOffset - body) / trailer.objectRefSize else {
                    throw fail(.truncated, "\(count) dictionary entries run past the object area", object: index)
                }
                // The last entry with the key wins, as when the whole file is read. Only the
                // keys and the value found are followed.
                var found: Int?
                for i in 0..<count {
                    if try keyEquals(try checkedRef(body, i, in: index), component) { found = i }
                }
                guard let found else { return nil }
                index = try checkedRef(body, count + found, in: index)
            case 0xA:
                let (count, body) = try count(Int(marker & 0x0F), at: start, index: index)
                guard count <= (trailer.offsetTableOffset - body) / trailer.objectRefSize else {
                    throw fail(.truncated, "\(count) object references run past the object area", object: index)
                }
                guard let i = PropertyListKeyPath.index(component), i >= 0, i < count else { return nil }
                index = try checkedRef(body, i, in: index)
            default:
                return nil
            }
        }
        return index
    }

    /// Reference `i` of the collection whose references start at `body`, checked to name an
    /// object whose offset is in the object area.
    func checkedRef(_ body: Int, _ i: Int, in index: Int) throws(PropertyListError) -> Int {
        let size = trailer.objectRefSize
        let r = be(body + i * size, size)
        guard r < UInt64(trailer.objectCount) else {
            throw PropertyListError(.malformed, "reference \(r) in object \(index) is not below the object count \(trailer.objectCount)", at: .byteOffset(body + i * size))
        }
        if checksOffsetsOnUse { try checkOffset(of: Int(r)) }
        return Int(r)
    }

    /// Whether object `index` is the string `key`. Keys that are not strings never match.
    mutating func keyEquals(_ index: Int, _ key: String) throws(PropertyListError) -> Bool {
        let start = offset(index)
        let kind = bytes[start] >> 4
        guard kind == 0x5 || kind == 0x6 else { return false }
        // A one-byte-per-character string (ASCII, or UTF-8 from other writers) matches exactly
        // when its bytes are the key's UTF-8: compared in place, nothing decoded.
        if kind == 0x5 {
            let (count, body) = try count(Int(bytes[start] & 0x0F), at: start, index: index)
            if count <= trailer.offsetTableOffset - body {
                var key = key
                return key.withUTF8 { utf8 in
                    guard count == utf8.count else { return false }
                    guard count > 0, let keyBytes = utf8.baseAddress else { return true }
                    return memcmp(base + body, keyBytes, count) == 0
                }
            }
        }
        guard case .string(let s) = try readScalar(index, at: start) else { return false }
        return literallyEqual(s, key)
    }
}
