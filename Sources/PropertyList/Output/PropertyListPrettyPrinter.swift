import Foundation

/// Renders a value as a human-readable tree in the style of `plutil -p`.
///
/// Colors are ANSI escapes, off unless asked for; the CLI turns them on only on a terminal.
public struct PropertyListPrettyPrinter: Sendable {
    public var usesColors: Bool
    public var indentUnit: String

    /// Indentation stops growing at this depth, as in the XML writer: a 100,000-level document
    /// would otherwise print 10 GB of spaces.
    public static let maximumIndentation = 512

    public init(usesColors: Bool = false, indentUnit: String = "  ") {
        self.usesColors = usesColors
        self.indentUnit = indentUnit
    }

    public func render(_ value: PropertyListValue) -> String {
        var text: [UInt8] = []
        write(value) { text.append(contentsOf: $0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Writes the text in pieces of about `chunkSize` bytes, so that printing a large document
    /// takes little memory beyond the document itself.
    public func write(_ value: PropertyListValue, chunkSize: Int = 1 << 20, to emit: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var writer = PrettyPrintWriter(printer: self, chunkSize: max(chunkSize, 1), emit: emit)
            writer.append(value, depth: 0)
            writer.out.append(UInt8(ascii: "\n"))
            writer.out.drain(emit)
        }
    }

    func paint(_ text: String, _ code: String) -> String {
        usesColors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// A string quoted and escaped so that control characters and quotes stay visible.
    public static func quoted(_ s: String) -> String {
        // Most strings have nothing to escape: quoted whole, not a scalar at a time.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + s + "\""
        }
        return quotedScalarByScalar(s)
    }

    /// `quoted`'s way with a string that has something to escape, one scalar at a time.
    static func quotedScalarByScalar(_ s: String) -> String {
        QuotedString.quoted(s) { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u" + HexText.uppercase(UInt16(truncatingIfNeeded: scalar.value)) : nil
        }
    }

    /// Dates as plutil shows them: `2001-01-01 00:00:00 +0000`, with fractions kept when present.
    public static func dateText(_ date: Date) -> String {
        let t = date.timeIntervalSinceReferenceDate
        guard PropertyListDateRange.contains(t) else { return "<date \(t)>" }
        let g = GregorianDateTime(secondsSinceReferenceDate: t)
        let text = g.iso8601.dropLast().replacingOccurrences(of: "T", with: " ")
        return text + GregorianDateTime.fractionText(ofSeconds: t) + " +0000"
    }

    public static func dataText(_ data: Data, limit: Int = 64) -> String {
        let shown = HexText.lowercase(data.prefix(limit))
        return "{length = \(data.count), bytes = 0x\(shown)\(data.count > limit ? "..." : "")}"
    }

    func scalarText(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let s): return paint(Self.quoted(s), "32")
        case .invalidUTF16String(let u):
            return paint("<invalid UTF-16: " + u.map(HexText.uppercase).joined(separator: " ") + ">", "31")
        case .integer(let i): return paint(i.description, "33")
        case .real(let r): return paint(Self.realText(r), "33")
        case .bool(let b): return paint(b ? "true" : "false", "35")
        case .date(let d): return paint(Self.dateText(d), "36")
        case .data(let d): return paint(Self.dataText(d), "36")
        case .uid(let u): return paint("<CF$UID \(u)>", "35")
        case .null: return paint("null", "35")
        case .array, .dictionary, .set: return ""
        }
    }

    /// Reals in their shortest round-tripping form.
    public static func realText(_ r: Double) -> String {
        if r.isNaN { return "nan" }
        if r.isInfinite { return r < 0 ? "-inf" : "+inf" }
        if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
        return "\(r)"
    }
}
