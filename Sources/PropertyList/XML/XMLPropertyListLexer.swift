import Foundation

/// The byte-level rules Core Foundation's XML property-list parser reads by (CFPropertyList.c),
/// applied to the document before libxml2 parses its elements.
///
/// CF does not read XML as an XML parser does: it skips whatever comes before the first
/// element (processing instructions anywhere, any number of DOCTYPEs, comments that contain
/// `--`), ignores everything after it, ends a tag at the first `>` whatever quotes say, never
/// looks at attributes, and reads the text of `<integer>`, `<real>`, `<date>`, `<data>` and the
/// booleans as bytes, with rules of its own (leading whitespace in an integer, base64 that
/// skips stray characters, raw carriage returns kept in strings). So this lexer walks the text
/// as CF does, refuses what CF refuses, and gives:
///
/// - the value of each scalar element, in document order, read by CF's rules;
/// - the document's elements alone (`skeleton`: a container as `<n>`…`</n>` or `<n/>`, a scalar as
///   `<n/>`, where `n` is one letter for the element's name, `Name.letter`),
///   which libxml2 then parses: the nesting of the elements is checked by libxml2, and its
///   SAX events drive the building of the tree.
///
/// What CF's parser decides from the nesting (a key where a value must be, one value in a
/// `<plist>`, `CF$UID` dictionaries) is left to `XMLPropertyListReaderContext`.
package struct XMLPropertyListLexer {
    /// The element names CF knows.
    package enum Name: UInt8 {
        case plist, array, dict, key, string, data, date, real, integer, `true`, `false`

        /// The name, for messages and the reader's stack.
        package var text: String { bytes.description }

        var isContainer: Bool { self == .plist || self == .array || self == .dict }

        /// The element's name in the skeleton: one letter, `a` for the first case on.
        var letter: UInt8 { UInt8(ascii: "a") + rawValue }

        /// The name as bytes, for comparing end tags.
        var bytes: StaticString {
            switch self {
            case .plist: "plist"
            case .array: "array"
            case .dict: "dict"
            case .key: "key"
            case .string: "string"
            case .data: "data"
            case .date: "date"
            case .real: "real"
            case .integer: "integer"
            case .true: "true"
            case .false: "false"
            }
        }
    }

    /// A scalar element's value and where its text begins (after its start tag).
    package struct Scalar {
        package var value: PropertyListValue
        package var offset: Int
    }

    package let text: UnsafeBufferPointer<UInt8>
    /// The first byte of `text`, or of `noText` when it is empty (every read is bounded by
    /// `end`, so nothing is read there).
    let base: UnsafePointer<UInt8>
    /// A byte to point at for an empty text.
    nonisolated(unsafe) static let noText: UnsafeMutablePointer<UInt8> = {
        let byte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        byte.initialize(to: 0)
        return byte
    }()
    let end: Int
    var pos = 0
    package let options: PropertyListReadOptions
    /// Read what CF refuses as XML means it (comments inside strings): only in the second
    /// reading of a document CF's rules refused.
    package var beyondCoreFoundation = false
    /// Whether a tag's quoted attribute values are skipped whole, as XML reads them (CF ends a
    /// tag at its first `>`).
    package var quotesAttributes = false
    /// What was read beyond CF's rules (`.beyondCoreFoundation` warnings), at most one of each.
    package var beyondWarnings: [PropertyListWarning] = []
    /// The elements not yet handed to libxml2.
    package var skeleton: [UInt8] = []
    /// How many bytes of skeleton were handed to libxml2 before `skeleton`.
    var skeletonBase = 0
    /// For each tag of the skeleton (the last ones): where it starts there (counting from the
    /// first piece), and where it starts in `text`.
    package var skeletonOffsets: [Int] = []
    package var textOffsets: [Int] = []
    package var scalars: [Scalar] = []
    var decodedSize = 0
    /// The containers open, innermost last, with what names the element being read in them.
    private var open: [OpenElement] = []

    private struct OpenElement {
        var name: Name
        var start: Int
        /// Elements begun in it so far.
        var count = 0
        /// In a dictionary, the last key read.
        var key: String?
    }
    /// Reused for text with references or CDATA.
    private var scratch: [UInt8] = []

    /// Thrown when the text does not start as CF's XML parser needs (its first non-blank
    /// character is not `<`): CF then tries the OpenStep parser, and so does the caller.
    package static let notXML = PropertyListError(.unrecognizedFormat, "not an XML property list")

    /// Skeleton bytes per piece handed to libxml2.
    package static let pieceSize = 1 << 16

    package init(text: UnsafeBufferPointer<UInt8>, options: PropertyListReadOptions) {
        self.text = text
        base = text.baseAddress ?? UnsafePointer(Self.noText)
        end = text.count
        self.options = options
        skeleton.reserveCapacity(Self.pieceSize + 64)
    }

    // MARK: - Errors

    func error(_ message: String, at offset: Int? = nil, code: PropertyListError.Code = .malformed) -> PropertyListError {
        let (line, column) = TextDecoding.lineColumn(of: min(offset ?? pos, end), in: text)
        return PropertyListError(code, message, at: .lineColumn(line: line, column: column), keyPath: keyPath())
    }

    /// The path to the element being read: array indexes, and the keys whose values are read.
    private func keyPath() -> [String] {
        var path: [String] = []
        for element in open where element.count > 0 {
            switch element.name {
            case .array: path.append("[\(element.count - 1)]")
            case .dict: if element.count % 2 == 0, let key = element.key { path.append(key) }
            default: break
            }
        }
        return path
    }

    func endOfText(_ what: String) -> PropertyListError {
        error("the document ends \(what)", code: .truncated)
    }

    // MARK: - The document

    /// Walks what comes before the root element; `lexElements` then reads the root element, and
    /// nothing after it is read.
    package mutating func lexPrologue() throws(PropertyListError) {
        // Before the root: whitespace, comments, processing instructions and DOCTYPEs.
        while true {
            skipWhitespace()
            guard pos + 1 < end else {
                if pos < end, text[pos] != UInt8(ascii: "<") { throw Self.notXML }
                throw error("no property list value in the document")
            }
            guard text[pos] == UInt8(ascii: "<") else { throw Self.notXML }
            pos += 1
            let c = text[pos]
            if c == UInt8(ascii: "!") {
                pos += 1
                if pos + 1 < end, text[pos] == UInt8(ascii: "-"), text[pos + 1] == UInt8(ascii: "-") {
                    // CF moves three bytes past the `!` here: the first byte of the comment's
                    // text is never part of its `-->` (so `<!---->` is no whole comment).
                    pos += 3
                    try skipComment(start: pos - 4)
                } else {
                    try skipDoctype()
                }
            } else if c == UInt8(ascii: "?") {
                pos += 1
                try skipProcessingInstruction()
            } else {
                break
            }
        }
    }

    /// Whether the root element has been read to its end tag.
    private(set) var finished = false
    /// How many of the open containers are arrays and dictionaries.
    private var collections = 0
    private var isRoot = true

    /// Reads on in the root element until its end tag, or until `skeleton` holds at least
    /// `skeletonLimit` bytes, so that libxml2 can parse the document piece by piece while
    /// the lexer's values are consumed.
    ///
    /// - Returns: whether the root element is finished.
    package mutating func lexElements(skeletonLimit: Int) throws(PropertyListError) -> Bool {
        while !finished {
            guard skeleton.count < skeletonLimit else { return false }
            if !isRoot {
                // Between elements: whitespace, comments and processing instructions, then a tag.
                skipWhitespace()
                guard pos < end else { throw endOfText("inside <\(open[open.count - 1].name.text)>") }
                guard text[pos] == UInt8(ascii: "<") else {
                    throw error("text outside a value: \(describe(pos)) where an element should start")
                }
                pos += 1
                guard pos < end else { throw endOfText("inside <\(open[open.count - 1].name.text)>") }
                switch text[pos] {
                case UInt8(ascii: "?"):
                    // CF looks for `?>` from the `?` itself.
                    try skipProcessingInstruction()
                    continue
                case UInt8(ascii: "!"):
                    guard pos + 2 < end else { throw endOfText("inside a comment") }
                    guard text[pos + 1] == UInt8(ascii: "-"), text[pos + 2] == UInt8(ascii: "-") else {
                        throw error("only comments may start with <! between elements", at: pos - 1)
                    }
                    pos += 3
                    try skipComment(start: pos - 4)
                    continue
                case UInt8(ascii: "/"):
                    let closing = open.removeLast()
                    try closeTag(closing.name, tagStart: pos - 1)
                    if closing.name != .plist { collections -= 1 }
                    if open.isEmpty { finished = true }
                    continue
                default:
                    break
                }
            }
            isRoot = false
            // A start tag: its name ends at the first whitespace or `>`; `/` before `>` makes it
            // empty. Attributes are never read.
            let tagStart = pos - 1
            if !open.isEmpty { open[open.count - 1].count += 1 }
            let (name, isEmpty) = try startTag()
            if name.isContainer {
                if isEmpty {
                    guard name != .plist else { throw error("empty <plist>", at: tagStart) }
                    appendTag(name, kind: .empty, at: tagStart)
                } else {
                    if name != .plist {
                        // CF refuses the content of a collection nested deeper than its cap.
                        collections += 1
                        guard collections <= options.maximumDepth else {
                            throw error("nesting deeper than \(options.maximumDepth)", at: tagStart, code: .limitExceeded)
                        }
                    }
                    appendTag(name, kind: .start, at: tagStart)
                    open.append(OpenElement(name: name, start: tagStart))
                }
            } else {
                // The scalar's content and end tag are read here; libxml2 sees one empty
                // element, once its value is read.
                try scalar(name, isEmpty: isEmpty, tagStart: tagStart)
                appendTag(name, kind: .empty, at: tagStart)
                // A key in a dictionary's key position names the value after it.
                if let last = open.last, last.name == .dict, last.count % 2 == 1, case .string(let key)? = scalars.last?.value {
                    open[open.count - 1].key = key
                }
            }
            if open.isEmpty { finished = true }
        }
        return true
    }

    /// Forgets the first `consumed` scalars (taken by the reader) and the skeleton handed to
    /// libxml2, keeping the tag offsets of the last piece for error locations.
    package mutating func dropConsumed(scalars consumed: Int) {
        scalars.removeFirst(consumed)
        skeletonBase += skeleton.count
        skeleton.removeAll(keepingCapacity: true)
        if skeletonOffsets.count > 1 << 14 {
            let keep = 1 << 12
            skeletonOffsets.removeFirst(skeletonOffsets.count - keep)
            textOffsets.removeFirst(textOffsets.count - keep)
        }
    }

    // MARK: - Tags

    private enum TagKind { case start, end, empty }

    private mutating func appendTag(_ name: Name, kind: TagKind, at offset: Int) {
        skeletonOffsets.append(skeletonBase + skeleton.count)
        textOffsets.append(offset)
        switch kind {
        case .start:
            skeleton.append(UInt8(ascii: "<"))
            skeleton.append(name.letter)
            skeleton.append(UInt8(ascii: ">"))
        case .end:
            skeleton.append(UInt8(ascii: "<"))
            skeleton.append(UInt8(ascii: "/"))
            skeleton.append(name.letter)
            skeleton.append(UInt8(ascii: ">"))
        case .empty:
            skeleton.append(UInt8(ascii: "<"))
            skeleton.append(name.letter)
            skeleton.append(UInt8(ascii: "/"))
            skeleton.append(UInt8(ascii: ">"))
        }
    }

    /// Reads a start tag from just after its `<` to just after its `>`.
    private mutating func startTag() throws(PropertyListError) -> (Name, isEmpty: Bool) {
        let marker = pos
        var markerEnd = -1
        while pos < end {
            let c = text[pos]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                if markerEnd < 0 { markerEnd = pos }
            } else if c == UInt8(ascii: ">") {
                break
            } else if markerEnd >= 0, c == UInt8(ascii: "\"") || c == UInt8(ascii: "'"), quotesAttributes {
                skipAttributeValue(quote: c)
                continue
            }
            pos += 1
        }
        guard pos < end else { throw endOfText("inside a tag") }
        let isEmpty = text[pos - 1] == UInt8(ascii: "/")
        if markerEnd < 0 { markerEnd = pos - (isEmpty ? 1 : 0) }
        pos += 1
        guard markerEnd > marker else { throw error("malformed tag", at: marker - 1) }
        guard let name = Self.name(UnsafeBufferPointer(rebasing: text[marker..<markerEnd])) else {
            let shown = String(decoding: UnsafeBufferPointer(rebasing: text[marker..<min(markerEnd, marker + 40)]), as: UTF8.self)
            throw error("unknown element <\(shown)>", at: marker - 1)
        }
        return (name, isEmpty)
    }

    /// An attribute's quoted value, from its opening quote to just after its closing one. CF
    /// never reads attributes and ends a tag at its first `>`; XML (libxml2, every other reader)
    /// ends it after the quoted value, so a `>` inside one is where the two answers part.
    private mutating func skipAttributeValue(quote: UInt8) {
        let open = pos
        var p = pos + 1
        var holdsTagEnd = false
        while p < end, text[p] != quote {
            if text[p] == UInt8(ascii: ">") { holdsTagEnd = true }
            p += 1
        }
        guard p < end else {
            pos += 1
            return
        }
        pos = p + 1
        if holdsTagEnd {
            noteBeyond("a tag whose quoted attribute holds '>' as XML reads it (Core Foundation ends the tag at that '>' and reads the rest as text)", at: open)
        }
    }

    /// Records that the document was read where CF refuses it or reads it otherwise.
    mutating func noteBeyond(_ what: String, at offset: Int) {
        guard beyondWarnings.isEmpty else { return }
        let (line, column) = TextDecoding.lineColumn(of: min(offset, end), in: text)
        beyondWarnings.append(PropertyListWarning(
            .beyondCoreFoundation, "read \(what) at line \(line), column \(column); Core Foundation would not give this value",
            at: .lineColumn(line: line, column: column)))
    }

    private static func name(_ b: UnsafeBufferPointer<UInt8>) -> Name? {
        func equals(_ s: StaticString) -> Bool {
            b.count == s.utf8CodeUnitCount && (b.baseAddress.map { memcmp($0, s.utf8Start, b.count) == 0 } ?? false)
        }
        switch b[0] {
        case UInt8(ascii: "a"): return equals("array") ? .array : nil
        case UInt8(ascii: "d"): return equals("dict") ? .dict : equals("data") ? .data : equals("date") ? .date : nil
        case UInt8(ascii: "f"): return equals("false") ? .false : nil
        case UInt8(ascii: "i"): return equals("integer") ? .integer : nil
        case UInt8(ascii: "k"): return equals("key") ? .key : nil
        case UInt8(ascii: "p"): return equals("plist") ? .plist : nil
        case UInt8(ascii: "r"): return equals("real") ? .real : nil
        case UInt8(ascii: "s"): return equals("string") ? .string : nil
        case UInt8(ascii: "t"): return equals("true") ? .true : nil
        default: return nil
        }
    }

    /// CF's end tag: `</`, the name exactly, whitespace, `>`. `pos` is at the `<`, or (with
    /// `tagStart`) just after it.
    private mutating func closeTag(_ name: Name, tagStart: Int? = nil) throws(PropertyListError) {
        let start = tagStart ?? pos
        if tagStart != nil { pos = start }
        let bytes = name.bytes
        let n = bytes.utf8CodeUnitCount
        guard end - pos >= n + 3 else { throw endOfText("before </\(name.text)>") }
        guard text[pos] == UInt8(ascii: "<"), text[pos + 1] == UInt8(ascii: "/") else {
            if name == .true || name == .false { throw error("text inside <\(name.text)/>: it must be empty", at: start) }
            if text[pos] == UInt8(ascii: "<"), let inner = startTagName(at: pos + 1) {
                throw error("unexpected <\(inner)> inside <\(name.text)>")
            }
            throw error("expected </\(name.text)>, found \(describe(pos))")
        }
        pos += 2
        var matches = true
        for i in 0..<n where text[pos + i] != bytes.utf8Start[i] { matches = false }
        guard matches else { throw error("mismatched end tag: expected </\(name.text)>", at: start) }
        pos += n
        skipWhitespace()
        guard pos < end else { throw endOfText("before </\(name.text)> is closed") }
        guard text[pos] == UInt8(ascii: ">") else { throw error("expected </\(name.text)>", at: start) }
        pos += 1
        if tagStart != nil { appendTag(name, kind: .end, at: start) }
    }

    /// The name of a start tag at `i` (just after its `<`), for messages.
    private func startTagName(at i: Int) -> String? {
        var j = i
        while j < end, j - i < 40, text[j] != UInt8(ascii: ">"), text[j] != 0x20, text[j] != UInt8(ascii: "/"), text[j] > 0x20 { j += 1 }
        guard j > i, text[i] != UInt8(ascii: "!"), text[i] != UInt8(ascii: "?") else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: text[i..<j]), as: UTF8.self)
    }

    // MARK: - Skipping

    @inline(__always)
    private mutating func skipWhitespace() {
        while pos < end {
            let c = text[pos]
            guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { return }
            pos += 1
        }
    }

    /// To just after `-->`, which CF looks for only while at least three bytes follow.
    private mutating func skipComment(start: Int) throws(PropertyListError) {
        var p = pos
        while p + 3 < end {
            if text[p] == UInt8(ascii: "-"), text[p + 1] == UInt8(ascii: "-"), text[p + 2] == UInt8(ascii: ">") {
                pos = p + 3
                return
            }
            p += 1
        }
        throw error("unterminated comment", at: start, code: .truncated)
    }

    /// To just after `?>`, which CF looks for only while at least two bytes follow.
    private mutating func skipProcessingInstruction() throws(PropertyListError) {
        let start = pos
        var p = pos
        while p + 2 < end {
            if text[p] == UInt8(ascii: "?"), text[p + 1] == UInt8(ascii: ">") {
                pos = p + 2
                return
            }
            p += 1
        }
        throw error("unterminated processing instruction", at: start - 2, code: .truncated)
    }

    /// `<!DOCTYPE` (exactly so) up to its `>`; an internal subset (`[`) is refused.
    private mutating func skipDoctype() throws(PropertyListError) {
        let start = pos - 2
        let doctype: StaticString = "DOCTYPE"
        guard end - pos >= 7, memcmp(base + pos, doctype.utf8Start, 7) == 0 else {
            throw error("malformed DOCTYPE: only <!DOCTYPE and comments may start with <!", at: start)
        }
        pos += 7
        if options.requiresWellFormedInput { try checkDoctype(start: start) }
        skipWhitespace()
        while pos < end {
            let c = text[pos]
            if c == UInt8(ascii: "[") {
                throw error("a DOCTYPE with an internal subset ([…]) is not read", at: pos)
            }
            pos += 1
            if c == UInt8(ascii: ">") { return }
        }
        throw error("unterminated DOCTYPE", at: start, code: .truncated)
    }

    /// XML's grammar for a DOCTYPE without internal subset, from just after `<!DOCTYPE`:
    /// a name, then `SYSTEM "…"` or `PUBLIC "…" "…"` or nothing, then `>`. CF skips to the
    /// first `>`; a strict reading (`options.requiresWellFormedInput`) asks for the grammar.
    /// Leaves `pos` where it was.
    private func checkDoctype(start: Int) throws(PropertyListError) {
        var p = pos
        func space() -> Bool {
            let from = p
            while p < end, text[p] == 0x20 || text[p] == 0x09 || text[p] == 0x0A || text[p] == 0x0D { p += 1 }
            return p > from
        }
        func word() -> ArraySlice<UInt8> {
            let from = p
            while p < end, text[p] != 0x20, text[p] != 0x09, text[p] != 0x0A, text[p] != 0x0D, text[p] != UInt8(ascii: ">"),
                  text[p] != UInt8(ascii: "["), text[p] != UInt8(ascii: "\""), text[p] != UInt8(ascii: "'") { p += 1 }
            return ArraySlice(UnsafeBufferPointer(rebasing: text[from..<p]))
        }
        func literal() -> Bool {
            guard p < end, text[p] == UInt8(ascii: "\"") || text[p] == UInt8(ascii: "'") else { return false }
            let quote = text[p]
            p += 1
            while p < end, text[p] != quote { p += 1 }
            guard p < end else { return false }
            p += 1
            return true
        }
        let malformed = error("malformed DOCTYPE: expected <!DOCTYPE name>, <!DOCTYPE name SYSTEM \"…\"> or <!DOCTYPE name PUBLIC \"…\" \"…\"> (Core Foundation skips it)", at: start)
        guard space(), !word().isEmpty else { throw malformed }
        let spaced = space()
        if spaced, p < end, text[p] != UInt8(ascii: ">"), text[p] != UInt8(ascii: "[") {
            let keyword = word()
            if keyword.elementsEqual("SYSTEM".utf8) {
                guard space(), literal() else { throw malformed }
            } else if keyword.elementsEqual("PUBLIC".utf8) {
                guard space(), literal(), space(), literal() else { throw malformed }
            } else {
                throw malformed
            }
            _ = space()
        }
        guard p < end, text[p] == UInt8(ascii: ">") || text[p] == UInt8(ascii: "[") else { throw malformed }
    }

    /// After the root element: only whitespace, comments and processing instructions, as XML
    /// asks (CF ignores whatever follows). For a strict reading.
    package mutating func checkNothingFollowsRoot() throws(PropertyListError) {
        while true {
            skipWhitespace()
            guard pos < end else { return }
            guard text[pos] == UInt8(ascii: "<"), pos + 1 < end else {
                throw error("content after the root element (Core Foundation ignores it)")
            }
            if text[pos + 1] == UInt8(ascii: "?") {
                pos += 2
                try skipProcessingInstruction()
            } else if pos + 3 < end, text[pos + 1] == UInt8(ascii: "!"), text[pos + 2] == UInt8(ascii: "-"), text[pos + 3] == UInt8(ascii: "-") {
                let start = pos
                pos += 4
                while pos + 2 < end, !(text[pos] == UInt8(ascii: "-") && text[pos + 1] == UInt8(ascii: "-") && text[pos + 2] == UInt8(ascii: ">")) { pos += 1 }
                guard pos + 2 < end else { throw error("unterminated comment", at: start, code: .truncated) }
                pos += 3
            } else {
                throw error("content after the root element (Core Foundation ignores it)")
            }
        }
    }

    func describe(_ i: Int) -> String {
        guard i < end else { return "end of document" }
        let c = text[i]
        switch c {
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        default: return "byte 0x\(TextDecoding.hex(c))"
        }
    }

    // MARK: - Scalars

    /// Reads a scalar element whose start tag ends at `pos`, and its end tag.
    private mutating func scalar(_ name: Name, isEmpty: Bool, tagStart: Int) throws(PropertyListError) {
        let textStart = pos
        let value: PropertyListValue
        switch name {
        case .key, .string:
            if isEmpty {
                value = .string("")
            } else {
                value = .string(try textContent(of: name, tagStart: tagStart))
                try closeTag(name)
            }
        case .true, .false:
            // Empty, or closed at once: CF allows nothing between `<true>` and `</true>`.
            if !isEmpty { try closeTag(name) }
            value = .bool(name == .true)
        case .integer:
            guard !isEmpty else { throw error("empty <integer/>", at: tagStart, code: .invalidValue) }
            value = .integer(try integer(tagStart: tagStart))
            try closeTag(name)
        case .real:
            guard !isEmpty else { throw error("empty <real/>", at: tagStart, code: .invalidValue) }
            let contentStart = pos
            let content = try textContent(of: name, tagStart: tagStart)
            guard let r = Self.real(content) else {
                throw error("invalid <real> \(Self.shown(content))", at: contentStart, code: .invalidValue)
            }
            value = .real(r)
            try closeTag(name)
        case .date:
            guard !isEmpty else { throw error("empty <date/>", at: tagStart, code: .invalidValue) }
            value = .date(try date(tagStart: tagStart))
        case .data:
            guard !isEmpty else { throw error("empty <data/>", at: tagStart, code: .invalidValue) }
            value = .data(try data(tagStart: tagStart))
            try closeTag(name)
        case .plist, .array, .dict:
            return
        }
        scalars.append(Scalar(value: value, offset: textStart))
    }

    private static func shown(_ s: String) -> String {
        "\"" + (s.count > 40 ? String(s.prefix(40)) + "…" : s) + "\""
    }

    /// The text of a `<string>`, `<key>` or `<real>`: characters up to a `<` that starts no
    /// `<!`, where `<![CDATA[…]]>` is taken as it is and `&…;` is one of CF's references.
    private mutating func textContent(of name: Name, tagStart: Int) throws(PropertyListError) -> String {
        let start = pos
        var plain = true
        scratch.removeAll(keepingCapacity: true)
        var mark = pos
        while pos < end {
            let c = text[pos]
            if c == UInt8(ascii: "<") {
                guard pos + 1 < end, text[pos + 1] == UInt8(ascii: "!") else { break }
                if plain { plain = false }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[mark..<pos]))
                try cdata()
                mark = pos
            } else if c == UInt8(ascii: "&") {
                if plain { plain = false }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[mark..<pos]))
                try reference()
                mark = pos
            } else {
                pos += 1
            }
        }
        var bytes: UnsafeBufferPointer<UInt8>
        if plain {
            bytes = UnsafeBufferPointer(rebasing: text[start..<pos])
        } else {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[mark..<pos]))
            bytes = scratch.withUnsafeBufferPointer { $0 }
        }
        // CF makes the string with CFStringCreateWithBytes, which takes a leading U+FEFF for a
        // byte-order mark and drops it: one, however it was written (raw, in CDATA, as `&#xFEFF;`).
        // FuzzParity found a key that started with one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        decodedSize += bytes.count
        guard decodedSize <= options.maximumDecodedSize else {
            throw error("more than \(options.maximumDecodedSize) bytes of strings and data", at: tagStart, code: .limitExceeded)
        }
        // CF's UTF-8 decoder: well-formed UTF-8, but a stray 0xA9 becomes U+FFFD.
        if CoreFoundationText.isValidUTF8(bytes) { return String(decoding: bytes, as: UTF8.self) }
        guard let repaired = CoreFoundationText.validatedUTF8(bytes) else {
            throw error("<\(name.text)> is not valid UTF-8", at: tagStart, code: .invalidValue)
        }
        return String(decoding: repaired, as: UTF8.self)
    }

    /// `<![CDATA[…]]>`, at `pos`, appended to `scratch`.
    private mutating func cdata() throws(PropertyListError) {
        let start = pos
        let open: StaticString = "<![CDATA["
        guard end - pos >= 9 else { throw endOfText("inside <![CDATA[") }
        guard memcmp(base + pos, open.utf8Start, 9) == 0 else {
            if beyondCoreFoundation, text[pos + 2] == UInt8(ascii: "-"), text[pos + 3] == UInt8(ascii: "-") {
                // A comment, which XML allows in an element's text and CF refuses there.
                pos += 4
                try skipComment(start: start)
                noteBeyond("a comment inside a string", at: start)
                return
            }
            throw error("only <![CDATA[ may start with <! inside a string", at: start)
        }
        pos += 9
        let begin = pos
        while pos + 2 < end {
            if text[pos] == UInt8(ascii: "]"), text[pos + 1] == UInt8(ascii: "]"), text[pos + 2] == UInt8(ascii: ">") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[begin..<pos]))
                pos += 3
                return
            }
            pos += 1
        }
        throw error("unterminated <![CDATA[", at: start, code: .truncated)
    }

    /// One of the references CF knows, at `pos` (the `&`), appended to `scratch` as UTF-8:
    /// `&lt;` `&gt;` `&amp;` `&apos;` `&quot;`, or `&#` with up to eight decimal digits, or `&#x`
    /// with up to eight hexadecimal ones.
    private mutating func reference() throws(PropertyListError) {
        let start = pos
        pos += 1
        let left = end - pos
        guard left >= 1 else { throw endOfText("inside a reference") }
        func fail() -> PropertyListError {
            var j = start + 1
            while j < end, j - start < 12, text[j] != UInt8(ascii: ";"), text[j] > 0x20, text[j] != UInt8(ascii: "<") { j += 1 }
            if j < end, text[j] == UInt8(ascii: ";") { j += 1 }
            let shown = String(decoding: UnsafeBufferPointer(rebasing: text[start..<j]), as: UTF8.self)
            return error("unknown reference \(shown); only &lt; &gt; &amp; &apos; &quot; and &#…; are read", at: start)
        }
        switch text[pos] {
        case UInt8(ascii: "l"), UInt8(ascii: "g"):
            guard left >= 3, text[pos + 1] == UInt8(ascii: "t"), text[pos + 2] == UInt8(ascii: ";") else { throw fail() }
            scratch.append(text[pos] == UInt8(ascii: "l") ? UInt8(ascii: "<") : UInt8(ascii: ">"))
            pos += 3
        case UInt8(ascii: "a"):
            guard left >= 4 else { throw endOfText("inside a reference") }
            if text[pos + 1] == UInt8(ascii: "m"), text[pos + 2] == UInt8(ascii: "p"), text[pos + 3] == UInt8(ascii: ";") {
                scratch.append(UInt8(ascii: "&"))
                pos += 4
            } else if text[pos + 1] == UInt8(ascii: "p"), left > 4, text[pos + 2] == UInt8(ascii: "o"),
                      text[pos + 3] == UInt8(ascii: "s"), text[pos + 4] == UInt8(ascii: ";") {
                scratch.append(UInt8(ascii: "'"))
                pos += 5
            } else {
                throw fail()
            }
        case UInt8(ascii: "q"):
            guard left >= 5, text[pos + 1] == UInt8(ascii: "u"), text[pos + 2] == UInt8(ascii: "o"),
                  text[pos + 3] == UInt8(ascii: "t"), text[pos + 4] == UInt8(ascii: ";") else { throw fail() }
            scratch.append(UInt8(ascii: "\""))
            pos += 5
        case UInt8(ascii: "#"):
            guard left >= 4 else { throw endOfText("inside a character reference") }
            pos += 1
            var hex = false
            if text[pos] == UInt8(ascii: "x") {
                hex = true
                pos += 1
            }
            var value: UInt32 = 0
            var count = 0
            while pos < end {
                let c = text[pos]
                pos += 1
                count += 1
                if c == UInt8(ascii: ";") {
                    try appendCharacter(value, start: start)
                    return
                }
                guard count <= 8 else { throw error("character reference of more than eight digits", at: start) }
                value = hex ? value &<< 4 : value &* 10
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value &+= UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: value &+= UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: value &+= UInt32(c - UInt8(ascii: "A") + 10)
                default: throw error("unexpected \(describe(pos - 1)) in a character reference", at: start)
                }
            }
            throw endOfText("inside a character reference")
        default:
            throw fail()
        }
    }

    /// The UTF-8 of character `value`, as CF makes it: a surrogate or a number past U+10FFFF is
    /// refused (CF cannot make a string of it), anything else is its UTF-8, NUL included.
    private mutating func appendCharacter(_ value: UInt32, start: Int) throws(PropertyListError) {
        guard let scalar = Unicode.Scalar(value) else {
            throw error("character reference to U+\(String(value, radix: 16, uppercase: true)), which is no character", at: start, code: .invalidValue)
        }
        TextDecoding.appendUTF8(scalar, to: &scratch)
    }

    /// CF's `<real>`: NaN and the infinities by name in any case, else a decimal number of
    /// digits, signs, points and exponents after any leading whitespace, and nothing after it.
    static func real(_ s: String) -> Double? {
        var s = s
        if let r = s.withUTF8({ bytes -> Double?? in
            // ASCII text, the usual case, without copies.
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return .some(asciiReal(bytes))
        }) { return r }
        return nonASCIIReal(s)
    }

    /// `real` of ASCII text.
    private static func asciiReal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        func named(_ name: StaticString) -> Bool {
            guard bytes.count == name.utf8CodeUnitCount else { return false }
            for i in 0..<bytes.count where bytes[i] | 0x20 != name.utf8Start[i] | 0x20 { return false }
            return true
        }
        switch bytes.count {
        case 3:
            if named("nan") { return .nan }
            if named("inf") { return .infinity }
        case 4:
            if named("+inf") { return .infinity }
            if named("-inf") { return -.infinity }
        case 8:
            if named("infinity") { return .infinity }
        case 9:
            if named("+infinity") { return .infinity }
            if named("-infinity") { return -.infinity }
        default: break
        }
        // CF's whitespace below 0x80: the controls, space and DEL.
        var start = 0
        while start < bytes.count, bytes[start] < 0x21 || bytes[start] == 0x7F { start += 1 }
        guard start < bytes.count else { return nil }
        for b in bytes[start...] {
            switch b {
            case 0x30...0x39, 0x2B, 0x2D, 0x2E, 0x45, 0x65: continue
            default: return nil
            }
        }
        // strtod over the whole rest; Double's parser reads the same numbers.
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
    }

    /// `real` of text with characters past ASCII: only CF's wider whitespace may lead, by UTF-16 unit.
    private static func nonASCIIReal(_ s: String) -> Double? {
        var units = Substring(s).utf16[...]
        while let u = units.first, u < 0x21 || (u > 0x7E && u < 0xA1) || (u >= 0x2000 && u <= 0x200B) || u == 0x3000 {
            units = units.dropFirst()
        }
        guard !units.isEmpty else { return nil }
        for u in units {
            switch u {
            case 0x30...0x39, 0x2B, 0x2D, 0x2E, 0x45, 0x65: continue
            default: return nil
            }
        }
        return Double(String(decoding: Array(units), as: UTF16.self))
    }

    /// CF's whitespace in an integer, tested byte by byte on the UTF-8: bytes below 0x21, 0x7F
    /// to 0xA0, and the first byte of a few three-byte spaces.
    @inline(__always)
    private func isIntegerWhitespace(_ i: Int) -> Bool {
        let b = text[i]
        if b < 0x21 || (b > 0x7E && b < 0xA1) { return true }
        guard (b == 0xE2 || b == 0xE3), end - i >= 3 else { return false }
        let b2 = text[i + 1], b3 = text[i + 2]
        if b == 0xE2, b2 == 0x80 { return (b3 >= 80 && b3 <= 0x8B) || b3 == 0xAF }
        if b == 0xE2, b2 == 0x81 { return b3 == 0x9F }
        return b == 0xE3 && b2 == 0x80 && b3 == 0x80
    }

    /// CF's `<integer>`: whitespace, a sign, whitespace, `0x` for hexadecimal, digits, and the
    /// end tag straight after; a value of up to 64 bits, or its negation down to -2^63.
    private mutating func integer(tagStart: Int) throws(PropertyListError) -> PropertyListInteger {
        let contentStart = pos
        func bad(_ why: String) -> PropertyListError {
            var j = contentStart
            while j < end, j - contentStart < 40, text[j] != UInt8(ascii: "<") { j += 1 }
            let shown = String(decoding: UnsafeBufferPointer(rebasing: text[contentStart..<j]), as: UTF8.self)
            return error("invalid <integer> \"\(shown)\": \(why)", at: contentStart, code: .invalidValue)
        }
        func current() throws(PropertyListError) -> UInt8 {
            guard pos < end else { throw endOfText("inside <integer>") }
            return text[pos]
        }
        while pos < end, isIntegerWhitespace(pos) { pos += 1 }
        var c = try current()
        if c == UInt8(ascii: "<") { throw bad("no digits") }
        var negative = false
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") {
            negative = c == UInt8(ascii: "-")
            pos += 1
            while pos < end, isIntegerWhitespace(pos) { pos += 1 }
        }
        c = try current()
        var hex = false
        var leadingZero = false
        if c == UInt8(ascii: "0") {
            if pos + 1 < end, text[pos + 1] | 0x20 == UInt8(ascii: "x") {
                pos += 1
                hex = true
            } else {
                leadingZero = true
            }
            pos += 1
        }
        c = try current()
        while c == UInt8(ascii: "0") {
            leadingZero = true
            pos += 1
            c = try current()
        }
        if c == UInt8(ascii: "<") {
            guard leadingZero else { throw bad("no digits") }
            return PropertyListInteger(0)
        }
        var value: UInt64 = 0
        let radix: UInt64 = hex ? 16 : 10
        while c != UInt8(ascii: "<") {
            let digit: UInt64
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(c - UInt8(ascii: "A") + 10)
            default: throw bad("unexpected \(describe(pos))")
            }
            guard hex || digit < 10 else { throw bad("a hexadecimal digit without 0x") }
            let (m, o1) = value.multipliedReportingOverflow(by: radix)
            let (s, o2) = m.addingReportingOverflow(digit)
            guard !o1, !o2 else { throw bad("past 64 bits") }
            value = s
            guard !negative || value <= UInt64(Int64.max) + 1 else { throw bad("below -2^63") }
            pos += 1
            c = try current()
        }
        if negative || value <= UInt64(Int64.max) {
            let v = Int64(bitPattern: value)
            return PropertyListInteger(negative ? 0 &- v : v)
        }
        return PropertyListInteger(value)
    }

    /// CF's `<date>`: `[-]Y…-MM-DDTHH:MM:SSZ`, any number of year digits, two of each other,
    /// no range checked, then the end tag; the time as `CFGregorianDateGetAbsoluteTime` makes it.
    private mutating func date(tagStart: Int) throws(PropertyListError) -> Date {
        let contentStart = pos
        func bad() -> PropertyListError {
            var j = contentStart
            while j < end, j - contentStart < 40, text[j] != UInt8(ascii: "<") { j += 1 }
            let shown = String(decoding: UnsafeBufferPointer(rebasing: text[contentStart..<j]), as: UTF8.self)
            return error("invalid <date> \"\(shown)\", expected YYYY-MM-DDTHH:MM:SSZ", at: contentStart, code: .invalidValue)
        }
        var negative = false
        if pos < end, text[pos] == UInt8(ascii: "-") {
            negative = true
            pos += 1
        }
        var year: Int32 = 0
        while pos < end, text[pos] &- UInt8(ascii: "0") < 10 {
            year = year &* 10 &+ Int32(text[pos] - UInt8(ascii: "0"))
            pos += 1
        }
        func separator(_ c: UInt8) -> Bool {
            guard pos < end, text[pos] == c else { return false }
            pos += 1
            return true
        }
        // Two digits, when at least three bytes are left (CF's `read2DigitNumber`).
        func twoDigits() -> Int32? {
            guard pos + 2 < end else { return nil }
            let a = text[pos] &- UInt8(ascii: "0"), b = text[pos + 1] &- UInt8(ascii: "0")
            pos += 2
            guard a < 10, b < 10 else { return nil }
            return Int32(a) * 10 + Int32(b)
        }
        guard separator(UInt8(ascii: "-")), let month = twoDigits(), separator(UInt8(ascii: "-")),
              let day = twoDigits(), separator(UInt8(ascii: "T")), let hour = twoDigits(), separator(UInt8(ascii: ":")),
              let minute = twoDigits(), separator(UInt8(ascii: ":")), let second = twoDigits(), separator(UInt8(ascii: "Z"))
        else { throw bad() }
        do throws(PropertyListError) { try closeTag(.date) } catch { throw bad() }
        let seconds = CoreFoundationGregorian.absoluteTime(year: negative ? 0 &- year : year, month: month, day: day,
                                                           hour: hour, minute: minute, second: Double(second))
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// CF's base64 in `<data>`, read up to the first `<`: every byte below 0x80 that is no base64
    /// character is skipped, `=` counts as a zero digit and drops the bytes it pads, a group of
    /// fewer than four digits at the end is dropped, and a byte above 0x7F is refused.
    private mutating func data(tagStart: Int) throws(PropertyListError) -> Data {
        // Sized by the text up to the next `<` (at most 3 bytes for 4 characters).
        var extent = pos
        if let found = memchr(base + pos, Int32(UInt8(ascii: "<")), end - pos) {
            extent = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
        } else {
            extent = end
        }
        var out = [UInt8]()
        out.reserveCapacity((extent - pos) / 4 * 3 + 3)
        var equals = 0
        var accumulator: UInt32 = 0
        var digits = 0
        while pos < end {
            let c = text[pos]
            if c == UInt8(ascii: "<") { break }
            if c == UInt8(ascii: "=") {
                equals += 1
            } else if !(c == 0x20 || (c >= 0x09 && c <= 0x0D)) {
                equals = 0
            }
            guard c < 0x80 else {
                throw error("invalid <data>: byte 0x\(TextDecoding.hex(c)) is not base64", at: tagStart, code: .invalidValue)
            }
            pos += 1
            let v = Self.base64Value[Int(c)]
            if v < 0 { continue }
            digits += 1
            accumulator = accumulator << 6 | UInt32(v)
            if digits & 3 == 0 {
                out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                if equals < 2 { out.append(UInt8(truncatingIfNeeded: accumulator >> 8)) }
                if equals < 1 { out.append(UInt8(truncatingIfNeeded: accumulator)) }
            }
        }
        decodedSize += out.count
        guard decodedSize <= options.maximumDecodedSize else {
            throw error("more than \(options.maximumDecodedSize) bytes of strings and data", at: tagStart, code: .limitExceeded)
        }
        return Data(out)
    }

    /// Base64 digits by byte, `=` as 0, -1 for the rest (CF's `dataDecodeTable`).
    private static let base64Value: [Int8] = {
        var t = [Int8](repeating: -1, count: 128)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { t[Int(c)] = Int8(i) }
        t[Int(UInt8(ascii: "="))] = 0
        return t
    }()
}

/// The time CF's `CFGregorianDateGetAbsoluteTime` gives a date, without a time zone, for the
/// out-of-range values an XML `<date>` may hold (month 13, day 0, hour 99): years are counted
/// through their leap days, a month outside 1 to 13 adds nothing, days and hours just add.
enum CoreFoundationGregorian {
    static func absoluteTime(year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Double) -> Double {
        86400.0 * absoluteDays(year: Int64(year &- 2001), month: month, day: day)
            + 3600.0 * Double(hour) + 60.0 * Double(minute) + second
    }

    /// CF's `isleap` on a year counted from 2001.
    private static func isLeap(_ year: Int64) -> Bool {
        var y = (year + 1) % 400
        if y < 0 { y = -y }
        return y & 3 == 0 && y != 100 && y != 200 && y != 300
    }

    private static let daysBeforeMonth: [Int] = [-1, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]

    /// `__CFAbsoluteFromYMD`.
    private static func absoluteDays(year start: Int64, month: Int32, day: Int32) -> Double {
        var year = start
        var absolute = 0.0
        let b = year / 400
        absolute += Double(b) * 146097.0
        year -= b * 400
        if year < 0 {
            var i = year
            while i < 0 {
                absolute -= isLeap(i) ? 366.0 : 365.0
                i += 1
            }
        } else {
            var i: Int64 = 0
            while i < year {
                absolute += isLeap(i) ? 366.0 : 365.0
                i += 1
            }
        }
        // Months 1 to 13 have a count of days before them; any other adds nothing.
        if month >= 1, month <= 13 {
            absolute += Double(daysBeforeMonth[Int(month)] + (month > 2 && isLeap(year) ? 1 : 0))
        }
        absolute += Double(day - 1)
        return absolute
    }
}
