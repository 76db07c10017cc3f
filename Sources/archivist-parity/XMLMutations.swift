import Foundation

/// Structured mutations of an XML property list: whitespace, byte-order marks and encodings,
/// DOCTYPE variants, comments in every position, CDATA, entity and character references, the
/// case and spelling of tags and values, empty and self-closed elements, `CF$UID` dictionaries,
/// and the spellings of dates, reals and integers.
///
/// They work on the text as a list of tokens (tags, comments, text), so that each one changes
/// one construct and leaves the rest of the file as it was.
struct XMLMutations {
    /// One piece of the document.
    struct Token {
        enum Kind { case startTag, endTag, emptyTag, comment, declaration, doctype, text, cdata, other }
        var kind: Kind
        var text: [UInt8]
        /// For tags: the element name.
        var name: String = ""
    }

    var tokens: [Token]
    var random: ParityRandom
    var out: [(name: String, bytes: [UInt8])] = []
    let original: [UInt8]

    /// Splits UTF-8 XML into tokens; nil when it is not text this simple scanner can split.
    init?(_ bytes: [UInt8], random: ParityRandom) {
        var tokens: [Token] = []
        var i = 0
        let n = bytes.count
        func starts(_ s: String, at p: Int) -> Bool {
            let u = Array(s.utf8)
            return p + u.count <= n && Array(bytes[p..<(p + u.count)]) == u
        }
        func find(_ s: String, from p: Int) -> Int? {
            let u = Array(s.utf8)
            var q = p
            while q + u.count <= n {
                if bytes[q] == u[0], Array(bytes[q..<(q + u.count)]) == u { return q }
                q += 1
            }
            return nil
        }
        while i < n {
            if bytes[i] == UInt8(ascii: "<") {
                if starts("<!--", at: i) {
                    guard let e = find("-->", from: i + 4) else { return nil }
                    tokens.append(Token(kind: .comment, text: Array(bytes[i..<(e + 3)])))
                    i = e + 3
                } else if starts("<![CDATA[", at: i) {
                    guard let e = find("]]>", from: i + 9) else { return nil }
                    tokens.append(Token(kind: .cdata, text: Array(bytes[i..<(e + 3)])))
                    i = e + 3
                } else if starts("<?", at: i) {
                    guard let e = find("?>", from: i + 2) else { return nil }
                    tokens.append(Token(kind: .declaration, text: Array(bytes[i..<(e + 2)])))
                    i = e + 2
                } else if starts("<!", at: i) {
                    guard let e = find(">", from: i) else { return nil }
                    tokens.append(Token(kind: .doctype, text: Array(bytes[i..<(e + 1)])))
                    i = e + 1
                } else {
                    guard let e = find(">", from: i) else { return nil }
                    let tag = Array(bytes[i..<(e + 1)])
                    let isEnd = tag.count > 1 && tag[1] == UInt8(ascii: "/")
                    let isEmpty = tag.count > 2 && tag[tag.count - 2] == UInt8(ascii: "/")
                    var nameBytes = tag.dropFirst(isEnd ? 2 : 1).prefix { b in
                        b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D && b != UInt8(ascii: ">") && b != UInt8(ascii: "/")
                    }
                    if nameBytes.isEmpty { nameBytes = [] }
                    tokens.append(Token(kind: isEnd ? .endTag : isEmpty ? .emptyTag : .startTag, text: tag,
                                        name: String(decoding: nameBytes, as: UTF8.self)))
                    i = e + 1
                }
            } else {
                var e = i
                while e < n, bytes[e] != UInt8(ascii: "<") { e += 1 }
                tokens.append(Token(kind: .text, text: Array(bytes[i..<e])))
                i = e
            }
        }
        guard tokens.contains(where: { $0.kind == .startTag || $0.kind == .emptyTag }) else { return nil }
        self.tokens = tokens
        self.random = random
        original = bytes
    }

    static func joined(_ tokens: [Token]) -> [UInt8] { tokens.flatMap(\.text) }

    private mutating func add(_ name: String, _ tokens: [Token]) { out.append((name, Self.joined(tokens))) }
    private mutating func add(_ name: String, bytes: [UInt8]) { out.append((name, bytes)) }

    private func text(_ s: String) -> Token { Token(kind: .text, text: Array(s.utf8)) }
    private func indices(_ kind: Token.Kind, _ name: String? = nil) -> [Int] {
        tokens.indices.filter { tokens[$0].kind == kind && (name == nil || tokens[$0].name == name) }
    }

    /// Up to `k` of `list`, picked the same way in every run.
    private mutating func pick(_ list: [Int], _ k: Int) -> [Int] {
        guard list.count > k else { return list }
        var chosen = Set<Int>()
        while chosen.count < k { chosen.insert(list[random.below(list.count)]) }
        return chosen.sorted()
    }

    mutating func all() -> [(name: String, bytes: [UInt8])] {
        whitespace()
        encodings()
        doctypes()
        comments()
        cdata()
        references()
        spelling()
        emptyElements()
        scalars()
        uids()
        structure()
        return out
    }

    // MARK: - Whitespace

    private mutating func whitespace() {
        add("xml.whitespace.none", tokens.filter { !($0.kind == .text && $0.text.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) })
        add("xml.whitespace.crlf", bytes: original.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] })
        add("xml.whitespace.cr", bytes: original.map { $0 == 0x0A ? 0x0D : $0 })
        add("xml.whitespace.leading", bytes: Array(" \n\t".utf8) + original)
        add("xml.whitespace.trailing", bytes: original + Array("\n \n".utf8))
        for (name, ws) in [("space", " "), ("tab", "\t"), ("newline", "\n"), ("formfeed", "\u{0C}"), ("vtab", "\u{0B}"), ("nbsp", "\u{A0}")] {
            // Between two tags somewhere.
            var t = tokens
            if let at = pick(indices(.endTag), 1).first { t.insert(text(ws), at: at + 1) }
            add("xml.whitespace.between=\(name)", t)
        }
        // Inside tags: before `>`, after `<`, in end tags, before `/>`.
        for (name, edit) in [("beforeClose", 0), ("afterOpen", 1), ("endTagBeforeClose", 2), ("endTagAfterSlash", 3), ("emptyBeforeSlash", 4), ("emptyAfterSlash", 5)] {
            var t = tokens
            let kinds: [Token.Kind] = edit >= 4 ? [.emptyTag] : edit >= 2 ? [.endTag] : [.startTag]
            guard let at = pick(tokens.indices.filter { kinds.contains(tokens[$0].kind) }, 1).first else { continue }
            var tag = t[at].text
            switch edit {
            case 0, 2: tag.insert(0x20, at: tag.count - 1)
            case 1: tag.insert(0x20, at: 1)
            case 3: tag.insert(0x20, at: 2)
            case 4: tag.insert(0x20, at: tag.count - 2)
            default: tag.insert(0x20, at: tag.count - 1)
            }
            t[at].text = tag
            add("xml.whitespace.inTag=\(name)", t)
        }
        // Whitespace around the text of scalars.
        for element in ["string", "key", "integer", "real", "date", "data", "true"] {
            for at in pick(indices(.startTag, element), 1) {
                for (name, ws) in [("lead", " "), ("trail", " "), ("leadNewline", "\n"), ("leadTab", "\t")] {
                    var t = tokens
                    if name == "trail" {
                        // Before the end tag that follows.
                        guard let end = t[(at + 1)...].firstIndex(where: { $0.kind == .endTag }) else { continue }
                        t.insert(text(ws), at: end)
                    } else {
                        t.insert(text(ws), at: at + 1)
                    }
                    add("xml.whitespace.\(element).\(name)", t)
                }
            }
        }
    }

    // MARK: - Byte-order marks and encodings

    private mutating func encodings() {
        let text = String(decoding: original, as: UTF8.self)
        guard String(validating: original, as: UTF8.self) != nil else { return }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        add("xml.bom.utf8", bytes: bom + original)
        add("xml.bom.utf8.leadingSpace", bytes: bom + Array("  ".utf8) + original)
        add("xml.bom.utf8.twice", bytes: bom + bom + original)
        func utf16(_ s: String, bigEndian: Bool) -> [UInt8] {
            s.utf16.flatMap { u in bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)] }
        }
        func utf32(_ s: String, bigEndian: Bool) -> [UInt8] {
            s.unicodeScalars.flatMap { u -> [UInt8] in
                let v = u.value
                let be: [UInt8] = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
                return bigEndian ? be : be.reversed()
            }
        }
        let utf16Declared = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        add("xml.encoding.utf16be.bom", bytes: [0xFE, 0xFF] + utf16(utf16Declared, bigEndian: true))
        add("xml.encoding.utf16le.bom", bytes: [0xFF, 0xFE] + utf16(utf16Declared, bigEndian: false))
        add("xml.encoding.utf16be.noBOM", bytes: utf16(utf16Declared, bigEndian: true))
        add("xml.encoding.utf16le.noBOM", bytes: utf16(utf16Declared, bigEndian: false))
        add("xml.encoding.utf16le.bom.declaredUTF8", bytes: [0xFF, 0xFE] + utf16(text, bigEndian: false))
        add("xml.encoding.utf32be.bom", bytes: [0, 0, 0xFE, 0xFF] + utf32(text, bigEndian: true))
        add("xml.encoding.utf32le.bom", bytes: [0xFF, 0xFE, 0, 0] + utf32(text, bigEndian: false))
        // The declaration changed, the bytes left as UTF-8.
        let hasDeclaration = text.hasPrefix("<?xml")
        for name in ["utf-8", "UTF8", "utf8", "UTF_8", "U.T.F-08", "UT<[F-8", "UTF-16", "ISO-8859-1", "ISO_8859_01", "latin1", "US-ASCII", "ascii", "windows-1252", "macintosh", "x-mac-roman", "Shift_JIS", "EUC-JP", "UTF-32", "bogus-encoding", "--", ""] {
            let declared: String
            if hasDeclaration, text.contains("encoding=\"UTF-8\"") {
                declared = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"\(name)\"")
            } else {
                declared = "<?xml version=\"1.0\" encoding=\"\(name)\"?>\n" + text
            }
            add("xml.encoding.declared=\(name.isEmpty ? "empty" : name)", bytes: Array(declared.utf8))
        }
        add("xml.encoding.declared.singleQuotes", bytes: Array(text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding='UTF-8'").utf8))
        add("xml.encoding.declaration.removed", bytes: Array(text.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", with: "").utf8))
        add("xml.encoding.declaration.noEncoding", bytes: Array(text.replacingOccurrences(of: " encoding=\"UTF-8\"", with: "").utf8))
        add("xml.encoding.declaration.afterSpace", bytes: Array((" " + text).utf8))
        add("xml.encoding.declaration.afterComment", bytes: Array(("<!-- c -->" + text).utf8))
        add("xml.encoding.declaration.twice", bytes: Array(("<?xml version=\"1.0\"?>" + text).utf8))
        // Latin-1 bytes, declared and not.
        if let latin1 = text.data(using: .isoLatin1), latin1.count != original.count {
            let declaredLatin = String(decoding: latin1, as: UTF8.self).isEmpty ? "" : ""
            _ = declaredLatin
            var declared = [UInt8](latin1)
            if let range = text.range(of: "encoding=\"UTF-8\"") {
                let replaced = text.replacingCharacters(in: range, with: "encoding=\"ISO-8859-1\"")
                declared = [UInt8](replaced.data(using: .isoLatin1) ?? latin1)
            }
            add("xml.encoding.latin1.declared", bytes: declared)
            add("xml.encoding.latin1.undeclared", bytes: [UInt8](latin1))
        }
        // Invalid UTF-8 in a string, and in a comment.
        for (name, bad) in [("ff", [UInt8](arrayLiteral: 0xFF)), ("e9", [0xE9]), ("overlong", [0xC0, 0xAF]), ("surrogate", [0xED, 0xA0, 0x80])] {
            if let at = pick(indices(.startTag, "string") + indices(.startTag, "key"), 1).first {
                var t = tokens
                t.insert(Token(kind: .text, text: bad), at: at + 1)
                add("xml.encoding.invalid=\(name).inString", t)
            }
            var t = tokens
            t.insert(Token(kind: .comment, text: Array("<!-- ".utf8) + bad + Array(" -->".utf8)), at: min(t.count, 1))
            add("xml.encoding.invalid=\(name).inComment", t)
        }
        // Control characters and a NUL in a string.
        for (name, c) in [("nul", UInt8(0)), ("x01", 1), ("x0b", 0x0B), ("x1f", 0x1F), ("del", 0x7F)] {
            if let at = pick(indices(.startTag, "string"), 1).first {
                var t = tokens
                t.insert(Token(kind: .text, text: [c]), at: at + 1)
                add("xml.control=\(name).inString", t)
            }
        }
    }

    // MARK: - DOCTYPE

    private mutating func doctypes() {
        let doctype = indices(.doctype)
        let apple = "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">"
        let variants: [(String, String)] = [
            ("removed", ""),
            ("lowercase", "<!doctype plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">"),
            ("system", "<!DOCTYPE plist SYSTEM \"file://localhost/System/Library/DTDs/PropertyList.dtd\">"),
            ("bare", "<!DOCTYPE plist>"),
            ("internalEmpty", "<!DOCTYPE plist [ ]>"),
            ("internalEntity", "<!DOCTYPE plist [ <!ENTITY e \"x\"> ]>"),
            ("singleQuotes", "<!DOCTYPE plist PUBLIC '-//Apple//DTD PLIST 1.0//EN' 'http://www.apple.com/DTDs/PropertyList-1.0.dtd'>"),
            ("otherRoot", "<!DOCTYPE dict>"),
            ("noSpace", "<!DOCTYPEplist>"),
            ("twice", apple + "\n" + apple),
            ("unterminated", "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\""),
            ("element", "<!ELEMENT plist ANY>"),
        ]
        for (name, replacement) in variants {
            var t = tokens
            if let at = doctype.first {
                t[at] = Token(kind: .doctype, text: Array(replacement.utf8))
            } else {
                let at = t.firstIndex { $0.kind == .startTag || $0.kind == .emptyTag } ?? 0
                t.insert(Token(kind: .doctype, text: Array((replacement + "\n").utf8)), at: at)
            }
            add("xml.doctype=\(name)", t)
        }
        // The DOCTYPE moved after the root, and inside the plist.
        if let at = doctype.first {
            var t = tokens
            let d = t.remove(at: at)
            t.append(d)
            add("xml.doctype.afterRoot", t)
            t = tokens
            let moved = t.remove(at: at)
            if let plist = t.firstIndex(where: { $0.kind == .startTag && $0.name == "plist" }) {
                t.insert(moved, at: plist + 1)
                add("xml.doctype.insidePlist", t)
            }
        }
    }

    // MARK: - Comments

    private mutating func comments() {
        let comment = Token(kind: .comment, text: Array("<!-- a comment -->".utf8))
        // Before everything, after the declaration, before the root, at the end.
        add("xml.comment.atStart", [comment] + tokens)
        add("xml.comment.atEnd", tokens + [comment])
        if let decl = indices(.declaration).first {
            var t = tokens
            t.insert(comment, at: decl + 1)
            add("xml.comment.afterDeclaration", t)
        }
        // Between elements: after each kind of end tag, once.
        var seen = Set<String>()
        for at in indices(.endTag) where seen.insert(tokens[at].name).inserted {
            var t = tokens
            t.insert(comment, at: at + 1)
            add("xml.comment.after=\(tokens[at].name)", t)
        }
        // Inside the text of each kind of scalar (and inside true).
        for element in ["string", "key", "integer", "real", "date", "data", "true", "false", "dict", "array"] {
            for at in pick(indices(.startTag, element), 1) {
                var t = tokens
                t.insert(comment, at: at + 1)
                add("xml.comment.inside=\(element)", t)
            }
        }
        // Odd comments.
        for (name, c) in [("doubleHyphen", "<!-- a -- b -->"), ("empty", "<!---->"), ("threeHyphens", "<!--- x --->"), ("unterminated", "<!-- never closed"), ("shortClose", "<!-- x --!>")] {
            var t = tokens
            let at = pick(indices(.endTag), 1).first.map { $0 + 1 } ?? 0
            t.insert(Token(kind: .comment, text: Array(c.utf8)), at: at)
            add("xml.comment.odd=\(name)", t)
        }
        // A processing instruction between elements and inside a string.
        if let at = pick(indices(.endTag), 1).first {
            var t = tokens
            t.insert(Token(kind: .declaration, text: Array("<?pi data?>".utf8)), at: at + 1)
            add("xml.pi.between", t)
        }
        if let at = pick(indices(.startTag, "string"), 1).first {
            var t = tokens
            t.insert(Token(kind: .declaration, text: Array("<?pi data?>".utf8)), at: at + 1)
            add("xml.pi.inString", t)
        }
    }

    // MARK: - CDATA

    private mutating func cdata() {
        for element in ["string", "key", "integer", "real", "date", "data"] {
            for at in pick(indices(.startTag, element), 1) where at + 1 < tokens.count {
                var t = tokens
                if t[at + 1].kind == .text {
                    t[at + 1] = Token(kind: .cdata, text: Array("<![CDATA[".utf8) + t[at + 1].text + Array("]]>".utf8))
                    add("xml.cdata.whole=\(element)", t)
                }
                t = tokens
                t.insert(Token(kind: .cdata, text: Array("<![CDATA[]]>".utf8)), at: at + 1)
                add("xml.cdata.empty=\(element)", t)
            }
        }
        for (name, c) in [("lt", "<![CDATA[a<b&c]]>"), ("brackets", "<![CDATA[]]]]><![CDATA[>]]>"), ("unterminated", "<![CDATA[x"), ("lowercase", "<![cdata[x]]>")] {
            if let at = pick(indices(.startTag, "string"), 1).first {
                var t = tokens
                t.insert(Token(kind: .cdata, text: Array(c.utf8)), at: at + 1)
                add("xml.cdata.\(name)", t)
            }
        }
        if let at = pick(indices(.endTag), 1).first {
            var t = tokens
            t.insert(Token(kind: .cdata, text: Array("<![CDATA[ ]]>".utf8)), at: at + 1)
            add("xml.cdata.between", t)
        }
    }

    // MARK: - Entity and character references

    private mutating func references() {
        let refs: [(String, String)] = [
            ("lt", "&lt;"), ("gt", "&gt;"), ("amp", "&amp;"), ("quot", "&quot;"), ("apos", "&apos;"),
            ("dec", "&#65;"), ("hex", "&#x41;"), ("hexUpperX", "&#X41;"), ("hexUpperDigits", "&#x4A;"), ("nul", "&#0;"), ("x1", "&#x1;"),
            ("surrogate", "&#xD800;"), ("beyond", "&#x110000;"), ("emoji", "&#x1F600;"), ("fffe", "&#xFFFE;"),
            ("leadingZeros", "&#0000000065;"), ("eightDigits", "&#00000065;"), ("empty", "&#;"), ("emptyHex", "&#x;"),
            ("unknown", "&nbsp;"), ("noSemicolon", "&amp"), ("bare", "&"), ("space", "& amp;"), ("uppercase", "&LT;"),
            ("tab", "&#9;"), ("cr", "&#13;"), ("negative", "&#-1;"),
        ]
        let strings = pick(indices(.startTag, "string"), 1)
        let keys = pick(indices(.startTag, "key"), 1)
        for (name, r) in refs {
            for at in strings {
                var t = tokens
                t.insert(text(r), at: at + 1)
                add("xml.ref=\(name).inString", t)
            }
            for at in keys {
                var t = tokens
                t.insert(text(r), at: at + 1)
                add("xml.ref=\(name).inKey", t)
            }
        }
        // References where CF reads the raw bytes.
        for element in ["integer", "real", "date", "data"] {
            for at in pick(indices(.startTag, element), 1) where at + 1 < tokens.count && tokens[at + 1].kind == .text {
                guard let first = tokens[at + 1].text.first(where: { $0 > 0x20 }) else { continue }
                var t = tokens
                var content = t[at + 1].text
                if let i = content.firstIndex(of: first) {
                    content.replaceSubrange(i...i, with: Array("&#\(first);".utf8))
                }
                t[at + 1].text = content
                add("xml.ref.charRef.inside=\(element)", t)
            }
        }
        // References between elements and in an attribute.
        if let at = pick(indices(.endTag), 1).first {
            var t = tokens
            t.insert(text("&#32;"), at: at + 1)
            add("xml.ref.between", t)
        }
        if let at = indices(.startTag, "plist").first {
            var t = tokens
            t[at].text = Array("<plist version=\"1&amp;0\">".utf8)
            add("xml.ref.inAttribute", t)
        }
    }

    // MARK: - Case and spelling of tags, attributes

    private mutating func spelling() {
        var seen = Set<String>()
        for at in tokens.indices where [.startTag, .emptyTag].contains(tokens[at].kind) && seen.insert(tokens[at].name).inserted {
            let name = tokens[at].name
            guard !name.isEmpty else { continue }
            for (how, spelled) in [("upper", name.uppercased()), ("capitalized", name.prefix(1).uppercased() + name.dropFirst()), ("prefixed", "x:" + name), ("suffix", name + "s")] {
                var t = tokens
                // The start tag and its end tag.
                t[at].text = Array(String(decoding: t[at].text, as: UTF8.self).replacingOccurrences(of: "<" + name, with: "<" + spelled).utf8)
                if tokens[at].kind == .startTag, let end = matchingEnd(at) {
                    t[end].text = Array("</\(spelled)>".utf8)
                }
                add("xml.tag.\(how)=\(name)", t)
            }
            // The end tag alone spelled otherwise.
            if tokens[at].kind == .startTag, let end = matchingEnd(at) {
                var t = tokens
                t[end].text = Array("</\(name.uppercased())>".utf8)
                add("xml.tag.endMismatch=\(name)", t)
            }
        }
        if let at = indices(.startTag, "plist").first {
            for (name, tag) in [("noVersion", "<plist>"), ("version09", "<plist version=\"0.9\">"), ("unquoted", "<plist version=1.0>"),
                                ("duplicateAttribute", "<plist version=\"1.0\" version=\"1.0\">"), ("singleQuoted", "<plist version='1.0'>"),
                                ("namespace", "<plist xmlns=\"http://www.apple.com/plist\" version=\"1.0\">"), ("garbage", "<plist !!>"),
                                ("gtInAttribute", "<plist version=\"1>0\">"), ("tabs", "<plist\tversion=\"1.0\"\t>")] {
                var t = tokens
                t[at].text = Array(tag.utf8)
                add("xml.plist.\(name)", t)
            }
        }
        for element in ["string", "dict", "array", "key"] {
            if let at = pick(indices(.startTag, element), 1).first {
                var t = tokens
                t[at].text = Array("<\(element) id=\"1\">".utf8)
                add("xml.attribute.on=\(element)", t)
            }
        }
    }

    /// The end tag that closes the start tag at `at`.
    private func matchingEnd(_ at: Int) -> Int? {
        var depth = 0
        for i in (at + 1)..<tokens.count {
            switch tokens[i].kind {
            case .startTag: depth += 1
            case .endTag:
                if depth == 0 { return tokens[i].name == tokens[at].name ? i : nil }
                depth -= 1
            default: break
            }
        }
        return nil
    }

    // MARK: - Empty and self-closed elements

    private mutating func emptyElements() {
        for element in ["string", "key", "dict", "array", "data", "integer", "real", "date", "true", "false", "plist"] {
            for at in pick(indices(.startTag, element) + indices(.emptyTag, element), 1) {
                if tokens[at].kind == .startTag, let end = matchingEnd(at) {
                    var t = tokens
                    t.replaceSubrange(at...end, with: [Token(kind: .emptyTag, text: Array("<\(element)/>".utf8), name: element)])
                    add("xml.empty.selfClosed=\(element)", t)
                    t = tokens
                    t.replaceSubrange(at...end, with: [Token(kind: .startTag, text: Array("<\(element)>".utf8), name: element),
                                                       Token(kind: .endTag, text: Array("</\(element)>".utf8), name: element)])
                    add("xml.empty.openClose=\(element)", t)
                    t = tokens
                    t.replaceSubrange(at...end, with: [Token(kind: .emptyTag, text: Array("<\(element) />".utf8), name: element)])
                    add("xml.empty.selfClosedSpace=\(element)", t)
                } else if tokens[at].kind == .emptyTag {
                    var t = tokens
                    t[at] = Token(kind: .startTag, text: Array("<\(element)>".utf8), name: element)
                    t.insert(Token(kind: .endTag, text: Array("</\(element)>".utf8), name: element), at: at + 1)
                    add("xml.empty.opened=\(element)", t)
                    t = tokens
                    t[at] = Token(kind: .startTag, text: Array("<\(element)>".utf8), name: element)
                    t.insert(contentsOf: [text(" "), Token(kind: .endTag, text: Array("</\(element)>".utf8), name: element)], at: at + 1)
                    add("xml.empty.openedSpace=\(element)", t)
                }
            }
        }
    }

    // MARK: - Scalar spellings

    /// Replaces the text of one `element` with each of `spellings`.
    private mutating func respell(_ element: String, _ spellings: [(String, String)]) {
        // An element of that kind in the file, or a new one in place of some scalar.
        var t = tokens
        var at = pick(indices(.startTag, element).filter { $0 + 2 < tokens.count && tokens[$0 + 1].kind == .text && tokens[$0 + 2].kind == .endTag }, 1).first
        if at == nil {
            // Replace a string value (not a key) with this element.
            guard let s = pick(indices(.startTag, "string").filter { $0 + 2 < tokens.count && tokens[$0 + 1].kind == .text && tokens[$0 + 2].kind == .endTag }, 1).first else { return }
            t[s] = Token(kind: .startTag, text: Array("<\(element)>".utf8), name: element)
            t[s + 2] = Token(kind: .endTag, text: Array("</\(element)>".utf8), name: element)
            at = s
        }
        guard let at else { return }
        for (name, value) in spellings {
            var u = t
            u[at + 1] = text(value)
            add("xml.\(element)=\(name)", u)
        }
    }

    private mutating func scalars() {
        respell("integer", [
            ("plus", "+5"), ("minusZero", "-0"), ("leadSpace", " 5"), ("trailSpace", "5 "), ("hex", "0x1F"), ("hexUpper", "0X1f"),
            ("hexEmpty", "0x"), ("zeros", "00012"), ("onlyZeros", "000"), ("negHex", "-0x10"), ("uint64max", "18446744073709551615"),
            ("uint64maxPlus1", "18446744073709551616"), ("int64min", "-9223372036854775808"), ("int64minMinus1", "-9223372036854775809"),
            ("exponent", "1e3"), ("decimal", "1.0"), ("tabAfterSign", "-\t5"), ("spaceAfterSign", "- 5"), ("empty", ""), ("letters", "abc"),
            ("hexInDecimal", "12a"), ("nbspLead", "\u{A0}5"), ("plusMinus", "+-5"), ("doubleMinus", "--5"), ("newlineLead", "\n7"),
            ("int128", "170141183460469231731687303715884105727"), ("underscore", "1_000"),
        ])
        respell("real", [
            ("one", "1"), ("onePointZero", "1.0"), ("negZero", "-0"), ("exp", "0.1e1"), ("expUpper", "1E5"), ("leadDot", ".5"), ("trailDot", "5."),
            ("plus", "+5"), ("expNoDigits", "1e"), ("hexFloat", "0x1p3"), ("inf", "inf"), ("negINF", "-INF"), ("plusInfinity", "+Infinity"),
            ("nan", "NaN"), ("nanPayload", "nan(0x1)"), ("leadSpace", " 1.5"), ("trailSpace", "1.5 "), ("comma", "1,5"), ("overflow", "1e400"),
            ("underflow", "4.9e-325"), ("empty", ""), ("letters", "abc"), ("expPlus", "1e+2"), ("manyDigits", "3.14159265358979323846264338327950288"),
            ("infinityWord", "infinity"), ("negInf", "-inf"), ("nanSign", "-nan"), ("dotOnly", "."), ("tab", "\t2"),
        ])
        respell("date", [
            ("plain", "2001-01-01T00:00:00Z"), ("fraction", "2001-01-01T00:00:00.5Z"), ("noZ", "2001-01-01T00:00:00"), ("lowerZ", "2001-01-01T00:00:00z"),
            ("lowerT", "2001-01-01t00:00:00Z"), ("offset", "2001-01-01T00:00:00+01:00"), ("year0", "0000-01-01T00:00:00Z"), ("negativeYear", "-0001-01-01T00:00:00Z"),
            ("year10000", "10000-01-01T00:00:00Z"), ("month13", "2001-13-01T00:00:00Z"), ("month00", "2001-00-01T00:00:00Z"), ("day32", "2001-01-32T00:00:00Z"),
            ("hour24", "2001-01-01T24:00:00Z"), ("minute60", "2001-01-01T00:60:00Z"), ("second60", "2001-01-01T00:00:60Z"), ("leadSpace", " 2001-01-01T00:00:00Z"),
            ("trailSpace", "2001-01-01T00:00:00Z "), ("dateOnly", "2001-01-01"), ("oneDigitMonth", "2001-1-01T00:00:00Z"), ("shortYear", "01-01-01T00:00:00Z"),
            ("feb29", "2001-02-29T00:00:00Z"), ("leap", "2000-02-29T12:34:56Z"), ("epoch1900", "1900-01-01T00:00:00Z"), ("year1", "0001-01-01T00:00:00Z"),
            ("far", "9999-12-31T23:59:59Z"), ("empty", ""), ("spaceT", "2001-01-01 00:00:00Z"),
        ])
        respell("data", [
            ("plain", "AAEC"), ("wrapped", "AA\nEC\n"), ("spaces", " A A E C "), ("noPadding", "AAE"), ("padding1", "AAE="), ("padding2", "AA=="),
            ("extraPadding", "AAEC===="), ("paddingInside", "AA==AAEC"), ("invalidChar", "AA!EC"), ("dash", "AA-_"), ("nonASCII", "AA\u{E9}C"),
            ("empty", ""), ("onlyPadding", "===="), ("singleChar", "A"), ("tab", "\tAAEC"), ("urlSafe", "____"), ("dot", "AA.EC"),
        ])
        respell("string", [
            ("empty", ""), ("space", " "), ("gt", ">"), ("cdataEnd", "]]>"), ("quote", "\""), ("unicode", "\u{E9}\u{1F600}"), ("combining", "e\u{301}"),
            ("crlf", "a\r\nb"), ("cr", "a\rb"), ("tab", "\t"), ("lineSeparator", "\u{2028}"),
        ])
        respell("true", [("text", "yes"), ("space", " ")])
    }

    // MARK: - CF$UID dictionaries

    private mutating func uids() {
        // Put a CF$UID dictionary in place of some value.
        let value = pick(indices(.startTag, "string") + indices(.startTag, "integer"), 1).first
        let forms: [(String, String)] = [
            ("int", "<dict><key>CF$UID</key><integer>5</integer></dict>"),
            ("zero", "<dict><key>CF$UID</key><integer>0</integer></dict>"),
            ("negative", "<dict><key>CF$UID</key><integer>-1</integer></dict>"),
            ("uint32max", "<dict><key>CF$UID</key><integer>4294967295</integer></dict>"),
            ("2^32", "<dict><key>CF$UID</key><integer>4294967296</integer></dict>"),
            ("2^32plus5", "<dict><key>CF$UID</key><integer>4294967301</integer></dict>"),
            ("uint64max", "<dict><key>CF$UID</key><integer>18446744073709551615</integer></dict>"),
            ("int64min", "<dict><key>CF$UID</key><integer>-9223372036854775808</integer></dict>"),
            ("hex", "<dict><key>CF$UID</key><integer>0x10</integer></dict>"),
            ("real", "<dict><key>CF$UID</key><real>3.7</real></dict>"),
            ("negativeReal", "<dict><key>CF$UID</key><real>-2.5</real></dict>"),
            ("hugeReal", "<dict><key>CF$UID</key><real>1e20</real></dict>"),
            ("nanReal", "<dict><key>CF$UID</key><real>nan</real></dict>"),
            ("string", "<dict><key>CF$UID</key><string>5</string></dict>"),
            ("true", "<dict><key>CF$UID</key><true/></dict>"),
            ("date", "<dict><key>CF$UID</key><date>2001-01-01T00:00:00Z</date></dict>"),
            ("twoKeys", "<dict><key>CF$UID</key><integer>5</integer><key>x</key><integer>1</integer></dict>"),
            ("twice", "<dict><key>CF$UID</key><integer>5</integer><key>CF$UID</key><integer>6</integer></dict>"),
            ("otherKey", "<dict><key>CF$UIDs</key><integer>5</integer></dict>"),
            ("lowercase", "<dict><key>cf$uid</key><integer>5</integer></dict>"),
            ("spaced", "<dict>\n\t<key>CF$UID</key>\n\t<integer>5</integer>\n</dict>"),
            ("nested", "<dict><key>CF$UID</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>"),
            ("asKeyValue", "<dict><key>CF$UID</key><array/></dict>"),
        ]
        guard let at = value, at + 2 < tokens.count, let end = matchingEnd(at) else { return }
        for (name, form) in forms {
            var t = tokens
            t.replaceSubrange(at...end, with: [Token(kind: .other, text: Array(form.utf8))])
            add("xml.uid=\(name)", t)
        }
    }

    // MARK: - Structure

    private mutating func structure() {
        guard let plistStart = indices(.startTag, "plist").first, let plistEnd = matchingEnd(plistStart) else { return }
        // Garbage and a second value after the root.
        for (name, junk) in [("text", "junk"), ("element", "<string>x</string>"), ("plist", "<plist><string>x</string></plist>"), ("unclosed", "<dict>"),
                             ("invalidUTF8", "\u{FFFD}"), ("nul", "\u{0}"), ("ampersand", "&"), ("lt", "<")] {
            var t = tokens
            t.insert(text(junk), at: plistEnd + 1)
            add("xml.afterRoot=\(name)", t)
        }
        var raw = Self.joined(Array(tokens[...plistEnd]))
        raw += [0xFF, 0xFE, 0x00]
        add("xml.afterRoot=bytes", bytes: raw)
        // The root value without <plist>.
        var t = tokens
        t.remove(at: plistEnd)
        t.remove(at: plistStart)
        add("xml.noPlistElement", t)
        // A second value inside <plist>.
        t = tokens
        t.insert(Token(kind: .other, text: Array("<string>second</string>".utf8)), at: plistEnd)
        add("xml.plist.twoValues", t)
        // Text inside <plist>, <dict> and <array>.
        t = tokens
        t.insert(text("text"), at: plistStart + 1)
        add("xml.plist.text", t)
        for element in ["dict", "array"] {
            if let at = pick(indices(.startTag, element), 1).first {
                var u = tokens
                u.insert(text("x"), at: at + 1)
                add("xml.text.inside=\(element)", u)
            }
        }
        // Truncated at a few places.
        for fraction in [3, 2] {
            add("xml.truncate=1/\(fraction)", bytes: Array(original.prefix(original.count / fraction)))
        }
        add("xml.truncate.lastByte", bytes: Array(original.dropLast()))
        // A key where a value should be, a value where a key should be, a dangling key.
        if let key = pick(indices(.startTag, "key"), 1).first, let keyEnd = matchingEnd(key) {
            var u = tokens
            u.removeSubrange(key...keyEnd)
            add("xml.dict.missingKey", u)
            u = tokens
            u[key].text = Array("<string>".utf8)
            u[key].name = "string"
            u[keyEnd].text = Array("</string>".utf8)
            add("xml.dict.stringAsKey", u)
            u = tokens
            u.insert(contentsOf: Array(tokens[key...keyEnd]), at: keyEnd + 1)
            add("xml.dict.keyTwice", u)
        }
        if let array = pick(indices(.startTag, "array"), 1).first {
            var u = tokens
            u.insert(Token(kind: .other, text: Array("<key>k</key>".utf8)), at: array + 1)
            add("xml.array.key", u)
        }
        t = tokens
        t.insert(Token(kind: .other, text: Array("<key>k</key>".utf8)), at: plistStart + 1)
        add("xml.plist.keyFirst", t)
        // The plist element nested.
        t = tokens
        t.insert(Token(kind: .other, text: Array("<plist>".utf8)), at: plistStart + 1)
        t.insert(Token(kind: .other, text: Array("</plist>".utf8)), at: plistEnd + 1)
        add("xml.plist.nested", t)
        // Mismatched and missing end tags.
        if let end = pick(indices(.endTag), 1).first {
            var u = tokens
            u.remove(at: end)
            add("xml.endTag.missing", u)
        }
    }
}
