import Foundation

/// The byte writer behind `PropertyListPrettyPrinter`: the same text as its `scalarText`
/// pieces, with strings and integers written straight into the buffer, and the buffer handed
/// on whenever it passes the chunk size.
struct PrettyPrintWriter: ~Copyable {
    let printer: PropertyListPrettyPrinter
    let chunkSize: Int
    let emit: (UnsafeRawBufferPointer) -> Void
    var out = OutputBuffer(capacity: 1 << 16)
    /// `indentUnit` repeated, grown as deeper levels are met.
    var indentation: [UInt8] = []
    let unit: [UInt8]

    init(printer: PropertyListPrettyPrinter, chunkSize: Int, emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.printer = printer
        self.chunkSize = chunkSize
        self.emit = emit
        unit = Array(printer.indentUnit.utf8)
    }

    mutating func append(_ value: PropertyListValue, depth: Int) {
        switch value {
        case .array(let a), .set(let a):
            let isSet: Bool = if case .set = value { true } else { false }
            if a.isEmpty { return out.append(isSet ? "set []" : "[]") }
            out.append(isSet ? "set [\n" : "[\n")
            for (i, e) in a.enumerated() {
                indent(depth + 1)
                paint("2") { $0.out.appendDecimal(i) }
                out.append(" => ")
                append(e, depth: depth + 1)
                endLine()
            }
            indent(depth)
            out.append(UInt8(ascii: "]"))
        case .dictionary(let d):
            if d.isEmpty { return out.append("{}") }
            out.append("{\n")
            for (k, v) in d {
                indent(depth + 1)
                if case .string(let s) = k { quoted(s, color: "34") } else { scalar(k) }
                out.append(" => ")
                append(v, depth: depth + 1)
                endLine()
            }
            indent(depth)
            out.append(UInt8(ascii: "}"))
        default:
            scalar(value)
        }
    }

    mutating func scalar(_ value: PropertyListValue) {
        switch value {
        case .string(let s):
            quoted(s, color: "32")
        case .integer(let i):
            if let small = i.int64Value {
                paint("33") { $0.out.appendDecimal(small.magnitude, negative: small < 0) }
            } else {
                out.append(string: printer.scalarText(value))
            }
        case .data(let d):
            paint("36") { $0.dataText(d) }
        case .date(let date):
            let t = date.timeIntervalSinceReferenceDate
            // Whole seconds in range, the common case, without formatting through Foundation.
            guard PropertyListDateRange.contains(t), t == t.rounded(.down) else {
                return out.append(string: printer.scalarText(value))
            }
            paint("36") { $0.dateText(GregorianDateTime(secondsSinceReferenceDate: t)) }
        default:
            out.append(string: printer.scalarText(value))
        }
    }

    /// `PropertyListPrettyPrinter.dataText`: the length and the first 64 bytes in hex.
    mutating func dataText(_ data: Data) {
        out.append("{length = ")
        out.appendDecimal(data.count)
        out.append(", bytes = 0x")
        let hex: StaticString = "0123456789abcdef"
        let shown = data.prefix(64)
        out.reserve(shown.count * 2)
        hex.withUTF8Buffer { digits in
            for byte in shown {
                out.appendUnchecked(digits[Int(byte >> 4)])
                out.appendUnchecked(digits[Int(byte & 0x0F)])
            }
        }
        if data.count > 64 { out.append("...") }
        out.append(UInt8(ascii: "}"))
    }

    /// `PropertyListPrettyPrinter.dateText` of a whole second: `2001-01-01 00:00:00 +0000`.
    /// `PropertyListDateRange` keeps the year within four digits.
    mutating func dateText(_ g: GregorianDateTime) {
        out.reserve(25)
        out.appendZeroPaddedUnchecked(g.year, width: 4)
        out.appendUnchecked(UInt8(ascii: "-"))
        out.appendZeroPaddedUnchecked(g.month, width: 2)
        out.appendUnchecked(UInt8(ascii: "-"))
        out.appendZeroPaddedUnchecked(g.day, width: 2)
        out.appendUnchecked(UInt8(ascii: " "))
        out.appendZeroPaddedUnchecked(g.hour, width: 2)
        out.appendUnchecked(UInt8(ascii: ":"))
        out.appendZeroPaddedUnchecked(g.minute, width: 2)
        out.appendUnchecked(UInt8(ascii: ":"))
        out.appendZeroPaddedUnchecked(g.second, width: 2)
        out.appendUnchecked(" +0000")
    }

    /// A string as `PropertyListPrettyPrinter.quoted` writes it.
    mutating func quoted(_ s: String, color: StaticString) {
        var s = s
        let plain = s.withUTF8 { bytes in
            !bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        guard plain else { return paint(color) { $0.out.append(string: PropertyListPrettyPrinter.quoted(s)) } }
        paint(color) { w in
            w.out.append(UInt8(ascii: "\""))
            s.withUTF8 { w.out.append($0) }
            w.out.append(UInt8(ascii: "\""))
        }
    }

    /// `body`'s text in the ANSI color `code`, when the printer uses colors.
    mutating func paint(_ code: StaticString, _ body: (inout PrettyPrintWriter) -> Void) {
        guard printer.usesColors else { return body(&self) }
        out.append("\u{1B}[")
        out.append(code)
        out.append(UInt8(ascii: "m"))
        body(&self)
        out.append("\u{1B}[0m")
    }

    mutating func indent(_ depth: Int) {
        let levels = min(depth, PropertyListPrettyPrinter.maximumIndentation)
        let n = levels * unit.count
        while indentation.count < n { indentation += unit }
        indentation.withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[0..<n])) }
    }

    /// Ends an element's line, handing the text on when enough has gathered.
    mutating func endLine() {
        out.append(UInt8(ascii: "\n"))
        out.drain(ifAtLeast: chunkSize, to: emit)
    }
}
