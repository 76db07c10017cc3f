/// When two keys of one dictionary (or two members of one set) are the same key for Core
/// Foundation, which keeps one of them: `CFEqual` on the objects CF reads them as.
///
/// Strings compare by UTF-16 code units, not by canonical equivalence; numbers by value, so
/// that the integer 1 and the real 1.0 are one key; a boolean is no number; dates by their
/// seconds (a NaN date equals nothing); data by bytes. A UID has no equality of its own in CF:
/// two are one key only when they are one object, the same offset of the file.
enum CoreFoundationKeyEquality {
    /// A key with what CF's equality needs beyond its value: for a UID of a binary plist, the
    /// offset of its object (nil elsewhere, where every UID is an object of its own).
    struct Key: Hashable {
        var value: PropertyListValue
        var object: Int?

        static func == (a: Key, b: Key) -> Bool { CoreFoundationKeyEquality.equal(a, b) }

        func hash(into hasher: inout Hasher) {
            switch value {
            case .string(let s):
                hasher.combine(0)
                var s = s
                s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            case .invalidUTF16String(let units):
                // Hashed as the string Swift makes of them would not be: units are compared.
                hasher.combine(1)
                hasher.combine(units)
            case .integer(let i):
                hasher.combine(2)
                hasher.combine(CoreFoundationKeyEquality.numericHash(Double(i.int128Value)))
            case .real(let r):
                hasher.combine(2)
                hasher.combine(CoreFoundationKeyEquality.numericHash(r))
            case .bool(let b): hasher.combine(3); hasher.combine(b)
            case .date(let d): hasher.combine(4); hasher.combine(d.timeIntervalSinceReferenceDate)
            case .data(let d): hasher.combine(5); hasher.combine(d)
            case .uid: hasher.combine(6); hasher.combine(object)
            case .null: hasher.combine(7)
            case .array, .dictionary, .set: hasher.combine(8)
            }
        }
    }

    /// The bits a number hashes by: its value as a Double, one NaN and one zero.
    static func numericHash(_ d: Double) -> UInt64 {
        if d.isNaN { return Double.nan.bitPattern }
        return d == 0 ? 0 : d.bitPattern
    }

    static func equal(_ a: Key, _ b: Key) -> Bool {
        switch (a.value, b.value) {
        case (.string(let x), .string(let y)): return literallyEqual(x, y)
        case (.invalidUTF16String(let x), .invalidUTF16String(let y)): return x == y
        case (.string(let x), .invalidUTF16String(let y)), (.invalidUTF16String(let y), .string(let x)):
            return x.utf16.elementsEqual(y)
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.integer(let x), .real(let y)), (.real(let y), .integer(let x)): return equal(x, y)
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x.timeIntervalSinceReferenceDate == y.timeIntervalSinceReferenceDate
        case (.data(let x), .data(let y)): return x == y
        case (.uid, .uid): return a.object != nil && a.object == b.object
        case (.null, .null): return true
        default: return false
        }
    }

    /// Whether an integer and a real are the same number, exactly.
    static func equal(_ i: PropertyListInteger, _ r: Double) -> Bool {
        guard r.isFinite, r == r.rounded(.towardZero), abs(r) < 0x1p127 else { return false }
        return Int128(r) == i.int128Value
    }

    /// The entries whose key equals an earlier one: each with the index of the first.
    ///
    /// - Parameter object: the offset of key `i`'s object, which UIDs compare by.
    static func repeats(in keys: [PropertyListValue], object: (Int) -> Int?) -> [DuplicateKeys.Repeat] {
        let count = keys.count
        guard count > 1 else { return [] }
        var repeats: [DuplicateKeys.Repeat] = []
        if count <= 16 {
            keys.withUnsafeBufferPointer { keys in
                for later in 1..<count {
                    let b = Key(value: keys[later], object: object(later))
                    for first in 0..<later where equal(Key(value: keys[first], object: object(first)), b) {
                        repeats.append(DuplicateKeys.Repeat(first: first, later: later))
                        break
                    }
                }
            }
            return repeats
        }
        var seen = [Key: Int](minimumCapacity: count)
        for (index, key) in keys.enumerated() {
            let k = Key(value: key, object: object(index))
            if let first = seen[k] {
                repeats.append(DuplicateKeys.Repeat(first: first, later: index))
            } else {
                seen[k] = index
            }
        }
        return repeats
    }

    /// The entries without their repeats: one per key, where it first appeared, with the value
    /// `policy` picks (the first for CF's binary reader).
    static func resolving(keys: [PropertyListValue], values: [PropertyListValue], repeats: [DuplicateKeys.Repeat],
                          keepingFirst: Bool) -> PropertyListDictionary {
        if !keepingFirst { return DuplicateKeys.keepingLast(keys: keys, values: values, repeats: repeats) }
        var dropped = Set<Int>()
        for r in repeats { dropped.insert(r.later) }
        var result = PropertyListDictionary()
        result.reserveCapacity(keys.count - dropped.count)
        for index in keys.indices where !dropped.contains(index) {
            result.append(key: keys[index], value: values[index])
        }
        return result
    }
}
