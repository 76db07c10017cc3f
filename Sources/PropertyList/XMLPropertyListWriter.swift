import Foundation

/// Writes XML property lists byte for byte as Apple's CoreFoundation (`CFPropertyList.c`) does.
///
/// That means: Apple's header and DOCTYPE, tab indentation, dictionary keys sorted by UTF-16
/// code unit, only `<`, `>` and `&` escaped, base64 in CF's line layout, reals as `%.17g`,
/// dates in whole seconds, and UIDs as `CF$UID` dictionaries. Sets are written as arrays.
///
/// It departs from CF only where CF's output would not read back: NUL, CR, U+FFFE and U+FFFF
/// become character references, and indentation stops growing at 512 levels.
public struct XMLPropertyListWriter: Sendable {
    public init() {}

    /// Writes `value` as an XML property list in UTF-8.
    ///
    /// - Throws: `PropertyListError` (`.unrepresentable`) for what XML cannot carry: `.null`,
    ///   strings with lone surrogates, non-string dictionary keys, and dates that are not finite.
    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        var emitter = Emitter()
        emitter.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n")
        try emitter.emitTree(value)
        emitter.append("</plist>\n")
        return Data(emitter.out)
    }

    /// The output buffer and the walk over the tree, done with an explicit stack so that any depth can be written.
    private struct Emitter {
        var out: [UInt8] = []

        /// An open array or dictionary: its children in writing order and the next one to write.
        private struct Open {
            var children: [PropertyListValue]
            /// The keys of a dictionary, sorted as CF sorts them; nil for an array.
            var keys: [String]?
            var next = 0
            var indent: Int
        }

        private var open: [Open] = []

        init() {
            out.reserveCapacity(4096)
        }

        mutating func emitTree(_ root: PropertyListValue) throws(PropertyListError) {
            try emit(root, indent: 0)
            while !open.isEmpty {
                let top = open.count - 1
                let index = open[top].next
                guard index < open[top].children.count else {
                    tabs(open[top].indent)
                    append(open[top].keys == nil ? "</array>\n" : "</dict>\n")
                    open.removeLast()
                    continue
                }
                open[top].next += 1
                let indent = open[top].indent + 1
                if let keys = open[top].keys {
                    tabs(indent)
                    append("<key>")
                    appendEscaped(keys[index])
                    append("</key>\n")
                }
                try emit(open[top].children[index], indent: indent)
            }
        }

        /// Writes a scalar whole, or opens a container whose children the loop in `emitTree` writes.
        private mutating func emit(_ value: PropertyListValue, indent: Int) throws(PropertyListError) {
            tabs(indent)
            switch value {
            case .string(let s):
                append("<string>")
                appendEscaped(s)
                append("</string>\n")
            case .integer(let i):
                append("<integer>")
                appendInteger(i)
                append("</integer>\n")
            case .real(let r):
                append("<real>")
                appendReal(r)
                append("</real>\n")
            case .bool(let b):
                append(b ? "<true/>\n" : "<false/>\n")
            case .date(let d):
                append("<date>")
                guard XMLDateFormat.append(d, to: &out) else {
                    throw unrepresentable("the date \(d.timeIntervalSinceReferenceDate) is not finite or too far from 2001 to be written in XML")
                }
                append("</date>\n")
            case .data(let d):
                append("<data>\n")
                d.withUnsafeBytes { XMLBase64.appendEncoded($0, indent: indent, to: &out) }
                tabs(indent)
                append("</data>\n")
            case .uid(let u):
                append("<dict>\n")
                tabs(indent + 1)
                append("<key>CF$UID</key>\n")
                tabs(indent + 1)
                append("<integer>")
                appendDecimal(u, negative: false)
                append("</integer>\n")
                tabs(indent)
                append("</dict>\n")
            case .array(let children), .set(let children):
                guard !children.isEmpty else {
                    append("<array/>\n")
                    return
                }
                append("<array>\n")
                open.append(Open(children: children, keys: nil, indent: indent))
            case .dictionary(let dictionary):
                guard !dictionary.isEmpty else {
                    append("<dict/>\n")
                    return
                }
                append("<dict>\n")
                var keys: [String] = []
                keys.reserveCapacity(dictionary.count)
                for key in dictionary.keys {
                    guard case .string(let s) = key else {
                        throw unrepresentable("a dictionary key of type \(key.typeName) cannot be written in XML")
                    }
                    keys.append(s)
                }
                // CF sorts keys with CFStringCompare, which orders UTF-16 code units.
                let order = keys.indices.sorted { a, b in
                    let c = Self.compareUTF16(keys[a], keys[b])
                    return c != 0 ? c < 0 : a < b
                }
                let values = dictionary.values
                open.append(Open(children: order.map { values[$0] }, keys: order.map { keys[$0] }, indent: indent))
            case .invalidUTF16String:
                throw unrepresentable("a string with lone UTF-16 surrogates cannot be written in XML")
            case .null:
                throw unrepresentable("null cannot be written in XML")
            }
        }

        // MARK: Scalars

        mutating func append(_ s: StaticString) {
            out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }

        /// Indentation stops growing past this depth: CF indents without limit, which makes a
        /// document of 100,000 nested arrays 10 GB of tabs. CF cannot read anything nested that
        /// deep back, so no file Foundation round-trips is affected.
        static let maximumIndentation = 512

        private mutating func tabs(_ n: Int) {
            let n = min(n, Self.maximumIndentation)
            if n > 0 { out.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: n)) }
        }

        /// Escapes `<`, `>` and `&` as CF does, and writes other characters raw as CF does, except
        /// those XML parsers cannot read back raw: NUL, carriage return (every parser, libxml2
        /// and expat included, turns it into a line feed), U+FFFE and U+FFFF. Those become
        /// character references, which CF reads too.
        private mutating func appendEscaped(_ string: String) {
            var string = string
            string.withUTF8 { bytes in
                var runStart = 0
                var i = 0
                while i < bytes.count {
                    let b = bytes[i]
                    guard b <= UInt8(ascii: ">") || b == 0xEF else {
                        i += 1
                        continue
                    }
                    let replacement: StaticString
                    var length = 1
                    switch b {
                    case UInt8(ascii: "<"): replacement = "&lt;"
                    case UInt8(ascii: ">"): replacement = "&gt;"
                    case UInt8(ascii: "&"): replacement = "&amp;"
                    case 0: replacement = "&#0;"
                    case 0x0D: replacement = "&#13;"
                    case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && bytes[i + 2] == 0xBE:
                        replacement = "&#65534;"
                        length = 3
                    case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && bytes[i + 2] == 0xBF:
                        replacement = "&#65535;"
                        length = 3
                    default:
                        i += 1
                        continue
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                    append(replacement)
                    i += length
                    runStart = i
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            }
        }

        private mutating func appendInteger(_ i: PropertyListInteger) {
            if let small = i.int64Value {
                appendDecimal(small.magnitude, negative: small < 0)
            } else {
                out.append(contentsOf: String(i.int128Value).utf8)
            }
        }

        private mutating func appendDecimal(_ magnitude: UInt64, negative: Bool) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
                var k = 21
                var v = magnitude
                repeat {
                    k -= 1
                    buffer[k] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                } while v > 0
                if negative {
                    k -= 1
                    buffer[k] = UInt8(ascii: "-")
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[k...]))
            }
        }

        /// CF's `__CFNumberCopyFormattingDescriptionAsFloat64`: names for NaN and the infinities,
        /// `0.0` for either zero, and `%.17g` otherwise.
        private mutating func appendReal(_ r: Double) {
            if r.isNaN { return append("nan") }
            if r.isInfinite { return append(r > 0 ? "+infinity" : "-infinity") }
            if r == 0 { return append("0.0") }
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
                guard let base = buffer.baseAddress else { return }
                let length = withVaList([r]) { vsnprintf(base, 40, "%.17g", $0) }
                guard length > 0 else { return }
                // %g follows LC_NUMERIC; whatever the locale made of the decimal point becomes '.'.
                var previousWasPoint = false
                for i in 0..<min(Int(length), 39) {
                    let b = UInt8(bitPattern: base[i])
                    switch b {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"):
                        out.append(b)
                        previousWasPoint = false
                    default:
                        if !previousWasPoint { out.append(UInt8(ascii: ".")) }
                        previousWasPoint = true
                    }
                }
            }
        }

        /// Orders two strings by UTF-16 code unit, as `CFStringCompare` without options does.
        ///
        /// UTF-8 byte order agrees with it except where one string has a character from
        /// U+E000–U+FFFF and the other one beyond U+FFFF (a surrogate pair in UTF-16).
        static func compareUTF16(_ a: String, _ b: String) -> Int {
            var a = a, b = b
            return a.withUTF8 { x in
                b.withUTF8 { y in
                    let n = min(x.count, y.count)
                    var i = 0
                    while i < n, x[i] == y[i] { i += 1 }
                    if i == n { return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1) }
                    let p = x[i], q = y[i]
                    let pHigh = p >= 0xEE && p <= 0xEF, qHigh = q >= 0xEE && q <= 0xEF
                    let pAstral = p >= 0xF0, qAstral = q >= 0xF0
                    if (pHigh && qAstral) || (pAstral && qHigh) { return pAstral ? -1 : 1 }
                    return p < q ? -1 : 1
                }
            }
        }

        // MARK: Errors

        /// The error for a value XML cannot carry, with the key path of the value being written.
        private func unrepresentable(_ message: String) -> PropertyListError {
            var path: [String] = []
            for container in open {
                // The child being written is the one just before `next`.
                let index = container.next - 1
                guard index >= 0 else { continue }
                path.append(container.keys.map { $0[index] } ?? "[\(index)]")
            }
            return PropertyListError(.unrepresentable, message, keyPath: path)
        }
    }
}
