import Foundation
import PropertyList

/// OpenStep (old-style) property lists: each corpus value written out in OpenStep's syntax in
/// several styles (quoting, comments, escapes, `<…>` data, strings files), and text-level
/// mutations of the OpenStep files of the corpus.
struct OpenStepMutations {
    var random: ParityRandom
    var out: [(name: String, bytes: [UInt8])] = []

    init(random: ParityRandom) {
        self.random = random
    }

    private mutating func add(_ name: String, _ text: String) { out.append((name, Array(text.utf8))) }
    private mutating func add(_ name: String, bytes: [UInt8]) { out.append((name, bytes)) }

    // MARK: - Writing values

    /// How a value is written.
    struct Style {
        var quote: Character = "\""
        /// Write strings without quotes where OpenStep allows it.
        var bareWhenPossible = false
        var comment: String? = nil
        var dataGroups = 4
        var dataUppercase = false
        var trailingComma = false
        var indent = true
        /// Escape every non-ASCII character as \Uxxxx.
        var escapeNonASCII = false
        var separator = " = "
    }

    static func isBare(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || "_$/:.-".unicodeScalars.contains(c)
        }
    }

    static func quoted(_ s: String, _ style: Style) -> String {
        if style.bareWhenPossible, isBare(s) { return s }
        var out = String(style.quote)
        for u in s.utf16 {
            switch u {
            case 0x5C: out += "\\\\"
            case 0x22 where style.quote == "\"": out += "\\\""
            case 0x27 where style.quote == "'": out += "\\'"
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0..<0x20, 0x7F: out += "\\" + String(u, radix: 8).leftPadded(3)
            default:
                if style.escapeNonASCII, u >= 0x80 {
                    out += "\\U" + String(u, radix: 16).leftPadded(4)
                } else if let scalar = Unicode.Scalar(u) {
                    out.unicodeScalars.append(scalar)
                } else {
                    // A surrogate half: escaped, the only way OpenStep can say it.
                    out += "\\U" + String(u, radix: 16).leftPadded(4)
                }
            }
        }
        // Whole surrogate pairs were appended unit by unit above; rebuild them from the string.
        if !style.escapeNonASCII, s.unicodeScalars.contains(where: { $0.value > 0xFFFF }) {
            out = String(style.quote)
            for c in s.unicodeScalars {
                switch c {
                case "\\": out += "\\\\"
                case "\"" where style.quote == "\"": out += "\\\""
                case "'" where style.quote == "'": out += "\\'"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    if c.value < 0x20 || c.value == 0x7F { out += "\\" + String(c.value, radix: 8).leftPadded(3) } else { out.unicodeScalars.append(c) }
                }
            }
        }
        return out + String(style.quote)
    }

    /// The value in OpenStep syntax; nil for what OpenStep cannot hold as itself (it writes
    /// numbers, dates and booleans as strings, which is what they read back as).
    static func write(_ value: PropertyListValue, _ style: Style, depth: Int = 0) -> String? {
        let pad = style.indent ? String(repeating: "  ", count: depth + 1) : ""
        let close = style.indent ? String(repeating: "  ", count: depth) : ""
        let nl = style.indent ? "\n" : " "
        let comment = style.comment.map { " \($0) " } ?? ""
        switch value {
        case .string(let s): return quoted(s, style)
        case .integer(let i): return quoted(i.description, style)
        case .real(let r): return quoted(String(r), style)
        case .bool(let b): return quoted(b ? "YES" : "NO", style)
        case .date(let d): return quoted(String(d.timeIntervalSinceReferenceDate), style)
        case .uid(let u): return quoted(String(u), style)
        case .null, .invalidUTF16String: return nil
        case .data(let d):
            var hex = ""
            for (i, b) in d.enumerated() {
                if i > 0, style.dataGroups > 0, i % style.dataGroups == 0 { hex += " " }
                hex += String(format: style.dataUppercase ? "%02X" : "%02x", b)
            }
            return "<" + hex + ">"
        case .array(let items), .set(let items):
            if items.isEmpty { return "(" + comment + ")" }
            var parts: [String] = []
            for item in items {
                guard let w = write(item, style, depth: depth + 1) else { return nil }
                parts.append(pad + w)
            }
            return "(" + comment + nl + parts.joined(separator: "," + comment + nl) + (style.trailingComma ? "," : "") + nl + close + ")"
        case .dictionary(let d):
            if d.isEmpty { return "{" + comment + "}" }
            var parts: [String] = []
            for (k, v) in d {
                guard case .string(let key) = k, let w = write(v, style, depth: depth + 1) else { return nil }
                parts.append(pad + quoted(key, style) + style.separator + comment + w + ";" + comment)
            }
            return "{" + nl + parts.joined(separator: nl) + nl + close + "}"
        }
    }

    // MARK: - Mutations

    /// The value of a corpus file written in OpenStep's styles.
    mutating func rendered(_ value: PropertyListValue, budget: Int) {
        let styles: [(String, Style)] = [
            ("double", Style()),
            ("single", Style(quote: "'")),
            ("bare", Style(bareWhenPossible: true)),
            ("compact", Style(indent: false)),
            ("lineComments", Style(comment: "// c\n")),
            ("blockComments", Style(comment: "/* c */")),
            ("data1", Style(dataGroups: 1, dataUppercase: true)),
            ("dataNoSpace", Style(dataGroups: 0)),
            ("trailingComma", Style(trailingComma: true)),
            ("escaped", Style(escapeNonASCII: true)),
            ("tightEquals", Style(separator: "=")),
        ]
        for (name, style) in styles.prefix(budget) {
            guard let text = Self.write(value, style) else { return }
            add("openstep.render=\(name)", text)
        }
        guard budget > styles.count, let base = Self.write(value, Style()) else { return }
        // Encodings.
        add("openstep.render.bom.utf8", bytes: [0xEF, 0xBB, 0xBF] + Array(base.utf8))
        add("openstep.render.utf16le.bom", bytes: [0xFF, 0xFE] + base.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        add("openstep.render.utf16be.bom", bytes: [0xFE, 0xFF] + base.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        add("openstep.render.utf16be.noBOM", bytes: base.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        if let latin1 = base.data(using: .isoLatin1), latin1.count != base.utf8.count {
            add("openstep.render.latin1", bytes: [UInt8](latin1))
        }
        // A strings file: the top-level dictionary without its braces.
        if case .dictionary = value, base.hasPrefix("{"), base.hasSuffix("}") {
            let inner = String(base.dropFirst().dropLast())
            add("openstep.render.stringsFile", inner)
            add("openstep.render.stringsFile.junkAfter", inner + "\n}")
            add("openstep.render.stringsFile.noFinalSemicolon", inner.trimmingCharacters(in: .whitespacesAndNewlines).replacingLastOccurrence(of: ";", with: ""))
        }
    }

    /// Text-level mutations of an OpenStep document (a corpus file, or a rendered value).
    mutating func textual(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        let chars = Array(text.unicodeScalars)
        // Places after each kind of punctuation.
        for (name, mark) in [("brace", "{"), ("semicolon", ";"), ("equals", "="), ("paren", "("), ("comma", ","), ("close", "}")] {
            guard let at = chars.indices.filter({ chars[$0] == Unicode.Scalar(mark)! }).randomElement(using: &random) else { continue }
            for (what, insert) in [("lineComment", "// c\n"), ("blockComment", "/* c */"), ("vtab", "\u{0B}"), ("formfeed", "\u{0C}"),
                                   ("lineSeparator", "\u{2028}"), ("nbsp", "\u{A0}"), ("nul", "\u{0}")] {
                var c = chars
                c.insert(contentsOf: insert.unicodeScalars, at: at + 1)
                add("openstep.insert=\(what).after=\(name)", String(String.UnicodeScalarView(c)))
            }
        }
        add("openstep.comment.unterminated.atEnd", text + "/* never closed")
        add("openstep.comment.line.atEnd", text + "// done")
        add("openstep.comment.atStart", "/* c */" + text)
        add("openstep.comment.nested", "/* a /* b */ c */" + text)
        add("openstep.slash.atEnd", text + "/")
        add("openstep.junkAfter", text + " x")
        add("openstep.junkAfter.paren", text + " )")
        add("openstep.empty.whitespace", "  \n\t")
        add("openstep.empty.comment", "/* only a comment */")
        add("openstep.truncated", String(String.UnicodeScalarView(chars.prefix(chars.count / 2))))
        // A final semicolon removed, a comma doubled, quotes switched.
        if let last = text.range(of: ";", options: .backwards) {
            add("openstep.semicolon.lastRemoved", text.replacingCharacters(in: last, with: ""))
        }
        if let comma = text.range(of: ",") {
            add("openstep.comma.doubled", text.replacingCharacters(in: comma, with: ",,"))
        }
        add("openstep.quotes.single", text.replacingOccurrences(of: "\"", with: "'"))
    }

    /// Hand-written documents for escapes, unquoted strings, data and the grammar's corners:
    /// added once, with the first OpenStep file.
    mutating func grammar() {
        let escapes = ["\\n", "\\t", "\\r", "\\a", "\\b", "\\f", "\\v", "\\\"", "\\'", "\\\\", "\\/", "\\q", "\\u00e9", "\\U00e9", "\\U00E9", "\\U",
                       "\\U1", "\\U12", "\\U123", "\\U12345", "\\Ug", "\\UD800", "\\UDC00", "\\UD83D\\UDE00", "\\0", "\\00", "\\000", "\\0000", "\\1", "\\12",
                       "\\123", "\\377", "\\400", "\\351", "\\8", "\\9", "\\\n", "\\\r", "\\ ", "\\x41", "\\e"]
        for (i, e) in escapes.enumerated() {
            add("openstep.escape[\(i)]", "{ k = \"a\(e)b\"; }")
            add("openstep.escape[\(i)].single", "( 'a\(e)b' )")
        }
        add("openstep.escape.atEnd", "\"abc\\")
        let bare = ["abc", "a.b", "a/b", "a:b", "a_b", "$a", "a-b", "1.5", "-1", "+1", "a+b", "a b", "a@b", "a#b", "é", "a!b", "YES", "true", "0x10", "1e5"]
        for (i, s) in bare.enumerated() {
            add("openstep.bare[\(i)]", "{ k = \(s); }")
            add("openstep.bare.top[\(i)]", s)
        }
        let datas = ["<>", "<0>", "<00>", "<0 0>", "<00 11>", "<0011 2233>", "<AbCd>", "<gg>", "< 00 >", "<00\n11>", "<00", "<0x00>", "<00\t11>", "<00\u{2028}11>", "<00\u{0B}11>"]
        for (i, d) in datas.enumerated() {
            add("openstep.data[\(i)]", "{ k = \(d); }")
            add("openstep.data.top[\(i)]", d)
        }
        let grammar: [(String, String)] = [
            ("emptyDict", "{}"), ("emptyArray", "()"), ("arrayTrailingComma", "(a,)"), ("arrayOnlyComma", "(,)"), ("arrayDoubleComma", "(a,,b)"),
            ("arrayNoComma", "(a b)"), ("dictNoSemicolon", "{a=b}"), ("dictEmptyValue", "{a=;}"), ("dictKeyOnly", "{a;}"), ("dictKeyOnlyStrings", "a;"),
            ("dictTwoKeys", "{a=1;a=2;}"), ("dictNested", "{a={b=(c,<00>);};}"), ("dictArrayKey", "{(a)=b;}"), ("dictDataKey", "{<00>=b;}"), ("dictDictKey", "{{}=b;}"),
            ("stringsFile", "a=b;\nc=d;"), ("stringsFileJunk", "a=b; )"), ("stringsFileKeyOnly", "a; b;"), ("stringsFileComment", "/* c */ \"a\" = \"b\"; // d"),
            ("stringsFileMissingSemicolon", "a=b\nc=d;"), ("stringsFileNoValue", "a="), ("twoStrings", "a b"), ("twoArrays", "() ()"),
            ("stringThenEquals", "a = b"), ("unterminatedString", "\"abc"), ("unterminatedArray", "(a"), ("unterminatedDict", "{a=b;"), ("onlyWhitespace", " \u{0B}\u{0C} "),
            ("lineSeparators", "\u{2028}{a=b;}\u{2029}"), ("nulInside", "{a=\"b\u{0}c\";}"), ("nulOutside", "{a=b;}\u{0}"), ("singleQuoteDouble", "'a\"b'"),
            ("depth512", String(repeating: "(", count: 512) + String(repeating: ")", count: 512)),
            ("depth513", String(repeating: "(", count: 513) + String(repeating: ")", count: 513)),
            ("depth514", String(repeating: "(", count: 514) + String(repeating: ")", count: 514)),
            ("depth512scalar", String(repeating: "(", count: 512) + "a" + String(repeating: ")", count: 512)),
            ("depth513scalar", String(repeating: "(", count: 513) + "a" + String(repeating: ")", count: 513)),
            ("dictDepth512", String(repeating: "{a=", count: 512) + "b" + String(repeating: ";}", count: 512)),
            ("dictDepth513", String(repeating: "{a=", count: 513) + "b" + String(repeating: ";}", count: 513)),
            ("json", "{\"a\": 1}"), ("jsonArray", "[1, 2]"), ("jsonNumber", "42"), ("jsonTrue", "true"), ("jsonNull", "null"), ("jsonString", "\"a\\/b\""),
            ("jsonNested", "{\"a\": {\"b\": [true]}}"), ("jsonEmpty", "{ }"), ("jsonNegative", "-1.5e3"),
        ]
        for (name, text) in grammar { add("openstep.grammar=\(name)", text) }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    func replacingLastOccurrence(of target: String, with replacement: String) -> String {
        guard let r = range(of: target, options: .backwards) else { return self }
        return replacingCharacters(in: r, with: replacement)
    }
}

extension Array {
    func randomElement(using random: inout ParityRandom) -> Element? {
        isEmpty ? nil : self[random.below(count)]
    }
}
