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
                guard !overflow else { throw fail(.malformed, "dictionary count \(count) is too large", object: index) }
                let refs = try refs(pairs, at: body, index: index)
                let refSize = trailer.objectRefSize
                // The last entry with the key wins, as when the whole file is read.
                var found: Int?
                for i in 0..<count {
                    let keyIndex = ref(refs + i * refSize)
                    if try keyEquals(keyIndex, component) {
                        found = ref(refs + (count + i) * refSize)
                    }
                }
                guard let found else { return nil }
                index = found
            case 0xA:
                let (count, body) = try count(Int(marker & 0x0F), at: start, index: index)
                guard let i = PropertyListKeyPath.index(component), i >= 0, i < count else {
                    // Still check the array is whole, as reading it would.
                    _ = try refs(count, at: body, index: index)
                    return nil
                }
                let refs = try refs(count, at: body, index: index)
                index = ref(refs + i * trailer.objectRefSize)
            default:
                return nil
            }
        }
        return index
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
