/// Parses the text of `<integer>` and `<real>` straight from the bytes libxml2 hands over,
/// accepting what CF's XML parser accepts.
enum XMLScalarParser {
    @inline(__always)
    static func isXMLWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
    }

    /// The range of `text` without leading and trailing XML whitespace.
    static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        var end = text.count
        while start < end, isXMLWhitespace(text[start]) { start += 1 }
        while end > start, isXMLWhitespace(text[end - 1]) { end -= 1 }
        return start..<end
    }

    /// Whether the text is XML whitespace only.
    static func isBlank(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in text where !isXMLWhitespace(b) { return false }
        return true
    }

    /// Decimal with an optional sign, or `0x` hexadecimal, as CF reads them (whitespace may follow
    /// the sign). Any value of a signed 128-bit integer is kept, CF's UInt64 range included.
    ///
    /// - Returns: nil when the text is not an integer or does not fit in 128 bits.
    static func parseInteger(_ text: UnsafeBufferPointer<UInt8>) -> PropertyListInteger? {
        let range = trimmed(text)
        var i = range.lowerBound
        let end = range.upperBound
        var negative = false
        if i < end, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
            while i < end, isXMLWhitespace(text[i]) { i += 1 }
        }
        var radix: UInt64 = 10
        if i + 1 < end, text[i] == UInt8(ascii: "0"), text[i + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            i += 2
        }
        guard i < end else { return nil }
        var small: UInt64 = 0
        var large: UInt128? = nil
        while i < end {
            let b = text[i]
            let digit: UInt64
            if b &- UInt8(ascii: "0") < 10 {
                digit = UInt64(b &- UInt8(ascii: "0"))
            } else if radix == 16, (b | 0x20) &- UInt8(ascii: "a") < 6 {
                digit = UInt64((b | 0x20) &- UInt8(ascii: "a") + 10)
            } else {
                return nil
            }
            if let big = large {
                let (m, o1) = big.multipliedReportingOverflow(by: UInt128(radix))
                let (s, o2) = m.addingReportingOverflow(UInt128(digit))
                guard !o1, !o2 else { return nil }
                large = s
            } else {
                let (m, o1) = small.multipliedReportingOverflow(by: radix)
                let (s, o2) = m.addingReportingOverflow(digit)
                if o1 || o2 {
                    large = UInt128(small) * UInt128(radix) + UInt128(digit)
                } else {
                    small = s
                }
            }
            i += 1
        }
        guard let magnitude = large else {
            if negative {
                return PropertyListInteger(Int128(-Int128(small)))
            }
            return PropertyListInteger(small)
        }
        let limit = UInt128(1) << 127
        if negative {
            guard magnitude <= limit else { return nil }
            return PropertyListInteger(magnitude == limit ? Int128.min : -Int128(magnitude))
        }
        guard magnitude < limit else { return nil }
        return PropertyListInteger(Int128(magnitude))
    }

    private static let specialReals: [(name: [UInt8], value: Double)] = [
        (Array("nan".utf8), .nan),
        (Array("+infinity".utf8), .infinity),
        (Array("-infinity".utf8), -.infinity),
        (Array("infinity".utf8), .infinity),
        (Array("+inf".utf8), .infinity),
        (Array("-inf".utf8), -.infinity),
        (Array("inf".utf8), .infinity),
    ]

    /// A decimal floating-point number, or one of CF's names for NaN and the infinities in any case.
    ///
    /// - Returns: nil when the text is not a number.
    static func parseReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let range = trimmed(text)
        guard !range.isEmpty else { return nil }
        let body = UnsafeBufferPointer(rebasing: text[range])
        var sawDigit = false
        var sawLetter = false
        for b in body {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): break
            case UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: sawLetter = true
            }
        }
        if sawLetter {
            for special in specialReals where special.name.count == body.count {
                if zip(special.name, body).allSatisfy({ $0 == $1 | 0x20 || $0 == $1 }) { return special.value }
            }
            return nil
        }
        guard sawDigit else { return nil }
        return Double(String(decoding: body, as: UTF8.self))
    }
}
