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
        emitter.out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n")
        try emitter.emitTree(value)
        emitter.out.append("</plist>\n")
        return emitter.finish()
    }

    /// The keys of a dictionary in CF's order, with each key's `<key>…</key>` line (without its
    /// indentation) rendered once. Dictionaries of one shape share their keys array (the
    /// readers see to it), so an array of records sorts and escapes its keys once.
    final class SortedKeys {
        /// The keys array this was made from, kept so that its storage identifies it.
        let keys: [PropertyListValue]
        /// Entry indexes in writing order.
        let order: [Int]
        /// The key strings, by entry index (for error paths).
        let names: [String]
        /// `<key>…</key>\n` for each position of `order`, as ranges of `text`.
        let lines: [Range<Int>]
        let text: [UInt8]

        init(keys: [PropertyListValue], names: [String]) {
            self.keys = keys
            self.names = names
            // CF sorts keys with CFStringCompare, which orders UTF-16 code units.
            order = names.indices.sorted { a, b in
                let c = Emitter.compareUTF16(names[a], names[b])
                return c != 0 ? c < 0 : a < b
            }
            var text: [UInt8] = []
            var lines: [Range<Int>] = []
            for i in order {
                let start = text.count
                text.append(contentsOf: "<key>".utf8)
                Emitter.appendEscaped(names[i], to: &text)
                text.append(contentsOf: "</key>\n".utf8)
                lines.append(start..<text.count)
            }
            self.lines = lines
            self.text = text
        }

        /// Whether `keys` is the array this was made from.
        func matches(_ keys: [PropertyListValue]) -> Bool {
            keys.count == self.keys.count && keys.withUnsafeBufferPointer { a in
                self.keys.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
            }
        }
    }

    /// The output buffer and the walk over the tree, done with an explicit stack so that any depth can be written.
    private struct Emitter: ~Copyable {
        var out = OutputBuffer(capacity: 1 << 16)

        /// An open array or dictionary and the next child to write.
        private struct Open {
            /// An array's elements, or a dictionary's values in entry order.
            var children: [PropertyListValue]
            /// A dictionary's keys in writing order; nil for an array.
            var keys: SortedKeys?
            var next = 0
            var indent: Int
        }

        private var open: [Open] = []
        /// The key orders met most recently.
        private var recentKeys: [SortedKeys] = []
        private var nextRecent = 0

        consuming func finish() -> Data {
            out.data()
        }

        mutating func emitTree(_ root: PropertyListValue) throws(PropertyListError) {
            try emit(root, indent: 0)
            while !open.isEmpty {
                let top = open.count - 1
                let index = open[top].next
                guard index < open[top].children.count else {
                    tabs(open[top].indent)
                    if open[top].keys == nil { out.append("</array>\n") } else { out.append("</dict>\n") }
                    open.removeLast()
                    continue
                }
                open[top].next += 1
                let indent = open[top].indent + 1
                if let keys = open[top].keys {
                    tabs(indent)
                    let line = keys.lines[index]
                    keys.text.withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[line])) }
                    try emit(open[top].children[keys.order[index]], indent: indent)
                } else {
                    try emit(open[top].children[index], indent: indent)
                }
            }
        }

        /// Writes a scalar whole, or opens a container whose children the loop in `emitTree` writes.
        private mutating func emit(_ value: PropertyListValue, indent: Int) throws(PropertyListError) {
            tabs(indent)
            switch value {
            case .string(let s):
                out.append("<string>")
                appendEscaped(s)
                out.append("</string>\n")
            case .integer(let i):
                out.append("<integer>")
                appendInteger(i)
                out.append("</integer>\n")
            case .real(let r):
                out.append("<real>")
                appendReal(r)
                out.append("</real>\n")
            case .bool(let b):
                if b { out.append("<true/>\n") } else { out.append("<false/>\n") }
            case .date(let d):
                out.append("<date>")
                guard XMLDateFormat.append(d, to: &out) else {
                    throw unrepresentable("the date \(d.timeIntervalSinceReferenceDate) is not finite or too far from 2001 to be written in XML")
                }
                out.append("</date>\n")
            case .data(let d):
                out.append("<data>\n")
                d.withUnsafeBytes { XMLBase64.appendEncoded($0, indent: indent, to: &out) }
                tabs(indent)
                out.append("</data>\n")
            case .uid(let u):
                out.append("<dict>\n")
                tabs(indent + 1)
                out.append("<key>CF$UID</key>\n")
                tabs(indent + 1)
                out.append("<integer>")
                out.appendDecimal(u)
                out.append("</integer>\n")
                tabs(indent)
                out.append("</dict>\n")
            case .array(let children), .set(let children):
                guard !children.isEmpty else {
                    out.append("<array/>\n")
                    return
                }
                out.append("<array>\n")
                open.append(Open(children: children, keys: nil, indent: indent))
            case .dictionary(let dictionary):
                guard !dictionary.isEmpty else {
                    out.append("<dict/>\n")
                    return
                }
                out.append("<dict>\n")
                let keys = try sortedKeys(dictionary.keys)
                open.append(Open(children: dictionary.values, keys: keys, indent: indent))
            case .invalidUTF16String:
                throw unrepresentable("a string with lone UTF-16 surrogates cannot be written in XML")
            case .null:
                throw unrepresentable("null cannot be written in XML")
            }
        }

        /// The writing order of a dictionary's keys, from the recent ones when it has the
        /// same keys array.
        private mutating func sortedKeys(_ keys: [PropertyListValue]) throws(PropertyListError) -> SortedKeys {
            for recent in recentKeys where recent.matches(keys) { return recent }
            var names: [String] = []
            names.reserveCapacity(keys.count)
            for key in keys {
                guard case .string(let s) = key else {
                    throw unrepresentable("a dictionary key of type \(key.typeName) cannot be written in XML")
                }
                names.append(s)
            }
            let sorted = SortedKeys(keys: keys, names: names)
            if recentKeys.count < 8 {
                recentKeys.append(sorted)
            } else {
                recentKeys[nextRecent] = sorted
                nextRecent = (nextRecent + 1) % 8
            }
            return sorted
        }

        // MARK: Scalars

        /// Indentation stops growing past this depth: CF indents without limit, which makes a
        /// document of 100,000 nested arrays 10 GB of tabs. CF cannot read anything nested that
        /// deep back, so no file Foundation round-trips is affected.
        static let maximumIndentation = 512

        @inline(__always)
        private mutating func tabs(_ n: Int) {
            let n = min(n, Self.maximumIndentation)
            if n > 0 { out.append(repeating: UInt8(ascii: "\t"), count: n) }
        }

        /// Per byte: 1 when `appendEscaped` must look at it (`<`, `>`, `&`, NUL, CR, and 0xEF,
        /// the first byte of U+FFFE and U+FFFF), 0 otherwise.
        static let attention: [UInt8] = {
            var table = [UInt8](repeating: 0, count: 256)
            for b in [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0, 0x0D, 0xEF] { table[Int(b)] = 1 }
            return table
        }()

        /// The escaped text of `string`, as `appendEscaped` writes it.
        static func appendEscaped(_ string: String, to text: inout [UInt8]) {
            var buffer = OutputBuffer(capacity: 64)
            escape(string, into: &buffer)
            let n = buffer.length
            text.append(contentsOf: buffer.bytes(0..<n))
        }

        /// Escapes `<`, `>` and `&` as CF does, and writes other characters raw as CF does, except
        /// those XML parsers cannot read back raw: NUL, carriage return (every parser, libxml2
        /// and expat included, turns it into a line feed), U+FFFE and U+FFFF. Those become
        /// character references, which CF reads too.
        @inline(__always)
        private mutating func appendEscaped(_ string: String) {
            Self.escape(string, into: &out)
        }

        static func escape(_ string: String, into out: inout OutputBuffer) {
            var string = string
            string.withUTF8 { bytes in
                attention.withUnsafeBufferPointer { attention in
                    var runStart = 0
                    var i = 0
                    while i < bytes.count {
                        let b = bytes[i]
                        guard attention[Int(b)] != 0 else {
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
                        out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                        out.append(replacement)
                        i += length
                        runStart = i
                    }
                    out.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
                }
            }
        }

        private mutating func appendInteger(_ i: PropertyListInteger) {
            if let small = i.int64Value {
                out.appendDecimal(small.magnitude, negative: small < 0)
            } else {
                out.append(string: String(i.int128Value))
            }
        }

        /// CF's `__CFNumberCopyFormattingDescriptionAsFloat64`: names for NaN and the infinities,
        /// `0.0` for either zero, and `%.17g` otherwise.
        private mutating func appendReal(_ r: Double) {
            if r.isNaN { return out.append("nan") }
            if r.isInfinite { return r > 0 ? out.append("+infinity") : out.append("-infinity") }
            if r == 0 { return out.append("0.0") }
            XMLRealFormat.append(r, to: &out)
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
                path.append(container.keys.map { $0.names[$0.order[index]] } ?? "[\(index)]")
            }
            return PropertyListError(.unrepresentable, message, keyPath: path)
        }
    }
}
