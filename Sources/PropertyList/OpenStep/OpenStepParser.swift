import Foundation

/// The parser behind `OpenStepPropertyListReader`: Core Foundation's old-style parser
/// (CFOldStylePList.c) rule for rule, over the text as CF decodes it (see `CoreFoundationText`),
/// held as generalized UTF-8 so that a lone surrogate from UTF-16 input or a `\U` escape keeps
/// its code unit.
///
/// CF's parser is recursive; this one keeps its own stack of open collections, so a deep
/// document costs heap, never the thread's stack, whatever depth limit the caller allows. Each
/// frame does, when the value inside it is finished or has failed, what CF's function does when
/// its call returns; so CF's quirks follow: a failed element ends an array quietly (`(<0)` and
/// `(")` are empty arrays), a key that cannot be read ends a dictionary's entries, and a strings
/// file (a top-level dictionary without braces) ignores whatever follows its last entry.
struct OpenStepParser: TextPropertyListParser {
    let text: UnsafeBufferPointer<UInt8>
    let end: Int
    var pos = 0
    let options: PropertyListReadOptions
    /// Read what CF refuses as other writers mean it (GNUstep's typed values, non-ASCII unquoted
    /// strings): only in the second reading of a document CF's rules refused.
    let beyondCoreFoundation: Bool
    /// Refuse CF's leniencies (`options.requiresWellFormedInput`).
    let strict: Bool
    var objectCount = 0
    var decodedSize = 0
    /// Reused for strings with escapes, so that building one allocates once.
    private var scratch: [UInt8] = []
    var stack: [OpenTextCollection<Kind>] = []
    var warnings: [PropertyListWarning] = []
    /// The error of the first thing that failed: the one reported when the document as a whole
    /// fails (CF keeps the last; the first says what went wrong where).
    private var lastError: PropertyListError? {
        get { firstError }
        set { if firstError == nil { firstError = newValue } }
    }
    private var firstError: PropertyListError?
    /// A rule of ours was broken (a limit reached, a lone surrogate with `preservesInvalidUTF16`
    /// off): the read stops, whatever CF's parser would do next.
    private var limitError: PropertyListError?

    enum Kind: TextCollectionKind {
        case array, dictionary
        /// A .strings file: a dictionary without braces.
        case stringsFile
        var isArray: Bool { self == .array }
        var noun: String { self == .array ? "array" : "dictionary" }
    }

    static var bracelessKind: Kind? { .stringsFile }

    init(text: UnsafeBufferPointer<UInt8>, options: PropertyListReadOptions) {
        self.init(text: text, options: options, beyondCoreFoundation: false)
    }

    init(text: UnsafeBufferPointer<UInt8>, options: PropertyListReadOptions, beyondCoreFoundation: Bool) {
        self.text = text
        self.end = text.count
        self.options = options
        self.beyondCoreFoundation = beyondCoreFoundation
        self.strict = options.requiresWellFormedInput
    }

    /// Reads `data`, decoded as CF decodes a property list's text; with `beyondCoreFoundation`,
    /// also what CF refuses (see `PropertyListReadOptions.readsBeyondCoreFoundation`), each
    /// such reading reported as a warning.
    static func parse(_ data: Data, options: PropertyListReadOptions, beyondCoreFoundation: Bool = false,
                      warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try options.checkInputSize(data.count)
        let (value, found) = try data.withUnsafeBytesTyped { raw throws(PropertyListError) in
            try withText(raw) { text throws(PropertyListError) in
                var parser = OpenStepParser(text: text, options: options, beyondCoreFoundation: beyondCoreFoundation)
                let value = try parser.parseDocument()
                return (value, parser.warnings)
            }
        }
        warnings += found
        return value
    }

    /// The document as the generalized UTF-8 of the string CF makes of it: UTF-8 (a leading
    /// byte-order mark skipped) must be valid as CF's decoder reads it; other encodings are
    /// decoded as CF's XML parser's encoding detection picks them.
    static func withText<R>(_ raw: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) throws(PropertyListError) -> R) throws(PropertyListError) -> R {
        let encoding: CoreFoundationText.Encoding
        do throws(CoreFoundationText.Failure) {
            encoding = try CoreFoundationText.encoding(of: raw)
        } catch {
            throw error.propertyListError
        }
        let all = raw.bindMemory(to: UInt8.self)
        switch encoding {
        case .utf8:
            var text = UnsafeBufferPointer(rebasing: all[...])
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = UnsafeBufferPointer(rebasing: text[3...]) }
            if CoreFoundationText.isValidUTF8(text) { return try body(text) }
            guard let repaired = CoreFoundationText.validatedUTF8(text) else {
                let bad = TextDecoding.firstInvalidUTF8(text) ?? 0
                throw TextDecoding.invalidText("invalid UTF-8 byte 0x\(TextDecoding.hex(text[bad]))", at: bad, in: text)
            }
            return try repaired.withUnsafeBufferPointer { text throws(PropertyListError) in try body(text) }
        case .utf16BE(let skip), .utf16LE(let skip), .utf32BE(let skip), .utf32LE(let skip):
            let units = try CoreFoundationText.wideDocumentUnits(raw, encoding, skip: skip)
            let text = CoreFoundationText.generalizedUTF8(units)
            return try text.withUnsafeBufferPointer { text throws(PropertyListError) in try body(text) }
        case .latin1, .nextStep, .macRoman:
            let text = CoreFoundationText.utf8(ofSingleBytes: raw, nextStep: encoding == .nextStep, macRoman: encoding == .macRoman)
            return try text.withUnsafeBufferPointer { text throws(PropertyListError) in try body(text) }
        case .foundation(let encoding):
            let text = try CoreFoundationText.utf8(ofDocument: raw, in: encoding)
            return try text.withUnsafeBufferPointer { text throws(PropertyListError) in try body(text) }
        case .declared(let name):
            guard let text = XMLReaderRegistration.reader?.convert(raw, from: name) else {
                throw PropertyListError(.malformed, "cannot read the document as \(name), the encoding it declares", at: .byteOffset(0))
            }
            return try text.withUnsafeBufferPointer { text throws(PropertyListError) in try body(text) }
        }
    }

    // MARK: Document

    /// What a frame waits for, as the step CF's function takes next.
    private enum Step {
        /// Read a value (CF's `parsePlistObject`) at `depth`; `required` makes its absence an error.
        case value(required: Bool, depth: Int)
        /// A value has been read (or, nil, has failed or is absent): give it to the open frame.
        case returned(PropertyListValue?)
    }

    mutating func parseDocument() throws(PropertyListError) -> PropertyListValue {
        guard end > 0 else { throw error(.truncated, "the input is empty") }
        // CF reads a document of only whitespace and comments as an empty dictionary.
        guard skipSpace() else {
            if let limitError { throw limitError }
            return .dictionary(PropertyListDictionary())
        }
        let begin = 0
        guard let root = run(.value(required: true, depth: 0)) else {
            throw limitError ?? lastError ?? error(.malformed, "not a property list")
        }
        guard skipSpace() else {
            if let limitError { throw limitError }
            return root
        }
        // More follows: a string was the first key of a .strings file; anything else is junk.
        switch root {
        case .string, .invalidUTF16String: break
        default: throw error(.malformed, "unexpected \(describeCharacter(at: pos)) after the root value")
        }
        pos = begin
        objectCount = 0
        decodedSize = 0
        firstError = nil
        stack.append(OpenTextCollection(kind: .stringsFile, start: pos))
        guard let file = run(.value(required: false, depth: 0), resumingStringsFile: true) else {
            throw limitError ?? lastError ?? error(.malformed, "not a property list")
        }
        return file
    }

    /// Runs CF's parse from `initial` until the outermost frame returns; with
    /// `resumingStringsFile`, from the entries of the strings file frame just pushed.
    private mutating func run(_ initial: Step, resumingStringsFile: Bool = false) -> PropertyListValue? {
        var step = initial
        let base = resumingStringsFile ? stack.count - 1 : stack.count
        if resumingStringsFile { step = dictionaryEntries(firstKey: true) }
        while true {
            switch step {
            case .value(let required, let depth):
                startedCollection = false
                let scalar = startValue(required: required, depth: depth)
                step = startedCollection ? continueCollection() : .returned(scalar)
            case .returned(let value):
                if limitError != nil { return nil }
                if stack.count == base { return value }
                step = childReturned(value)
            }
        }
    }

    /// Set by `startValue` when it opened a collection rather than reading a scalar.
    private var startedCollection = false

    /// CF's `parsePlistObject` up to the point where a collection's content begins: a scalar is
    /// read whole; a collection is opened (its frame pushed, `startedCollection` set).
    private mutating func startValue(required: Bool, depth: Int) -> PropertyListValue? {
        guard depth <= options.maximumDepth else {
            lastError = error(.limitExceeded, "nesting deeper than \(options.maximumDepth)")
            return nil
        }
        guard skipSpace() else {
            if required { lastError = endsInside("where a value should start") }
            return nil
        }
        let c = text[pos]
        switch c {
        case UInt8(ascii: "{"):
            pos += 1
            guard countObject() else { return nil }
            stack.append(OpenTextCollection(kind: .dictionary, start: pos - 1))
            stack[stack.count - 1].depth = depth
            startedCollection = true
            return nil
        case UInt8(ascii: "("):
            pos += 1
            guard countObject() else { return nil }
            stack.append(OpenTextCollection(kind: .array, start: pos - 1))
            stack[stack.count - 1].depth = depth
            startedCollection = true
            return nil
        case UInt8(ascii: "<"):
            pos += 1
            return parseData()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            pos += 1
            return parseQuoted(quote: c)
        default:
            if isUnquoted(c) { return parseUnquoted() }
            if required { lastError = error(.malformed, "unexpected \(describeCharacter(at: pos)) where a value should start") }
            return nil
        }
    }

    /// The first step inside a collection just opened.
    private mutating func continueCollection() -> Step {
        let top = stack.count - 1
        if stack[top].kind == .array {
            return .value(required: false, depth: stack[top].depth + 1)
        }
        return dictionaryEntries(firstKey: true)
    }

    /// What the innermost frame does with the value just read (nil: failed or absent).
    private mutating func childReturned(_ value: PropertyListValue?) -> Step {
        let top = stack.count - 1
        if stack[top].kind == .array {
            // CF's parsePlistArray: an element, then `,` and another, or the end.
            if let value {
                stack[top].values.append(value)
                guard skipSpace() else {
                    lastError = endsInside("; expected ',' or ')'")
                    return finishFailed()
                }
                if text[pos] == UInt8(ascii: ",") {
                    pos += 1
                    return .value(required: false, depth: stack[top].depth + 1)
                }
            }
            guard skipSpace(), text[pos] == UInt8(ascii: ")") else {
                lastError = pos < end ? error(.malformed, "expected ')' to end the array, found \(describeCharacter(at: pos))")
                    : endsInside("; expected ')'")
                return finishFailed()
            }
            pos += 1
            return .returned(pop())
        }
        // A dictionary's value (after `=`): required.
        guard let value else { return finishFailed() }
        stack[top].values.append(value)
        return afterEntry()
    }

    /// After a dictionary entry: `;`, then the next key.
    private mutating func afterEntry() -> Step {
        guard skipSpace(), text[pos] == UInt8(ascii: ";") else {
            lastError = pos < end ? error(.malformed, "expected ';' after the value, found \(describeCharacter(at: pos))")
                : endsInside("; expected ';' after the value")
            return finishFailed()
        }
        pos += 1
        return dictionaryEntries(firstKey: false)
    }

    /// CF's parsePlistDictContent from the reading of a key: entries until no key can be read,
    /// then the closing brace (none for a strings file).
    private mutating func dictionaryEntries(firstKey: Bool) -> Step {
        let top = stack.count - 1
        while true {
            _ = skipSpace()
            let keyStart = pos
            guard let key = parseKey() else { break }
            guard skipSpace() else {
                lastError = endsInside("after a key; expected '=' or ';'")
                return finishFailed()
            }
            switch text[pos] {
            case UInt8(ascii: ";"):
                // `key;` is short for `key = key;`, as .strings files use it.
                guard countObject() else { return finishFailed() }
                stack[top].appendKey(key, at: keyStart)
                stack[top].values.append(key)
                pos += 1
                continue
            case UInt8(ascii: "="):
                pos += 1
                stack[top].appendKey(key, at: keyStart)
                return .value(required: true, depth: stack[top].depth + 1)
            default:
                lastError = error(.malformed, "expected '=' or ';' after the key, found \(describeCharacter(at: pos))")
                return finishFailed()
            }
        }
        if stack[top].kind == .stringsFile { return .returned(pop()) }
        guard skipSpace(), text[pos] == UInt8(ascii: "}") else {
            lastError = pos < end ? error(.malformed, "expected '}' to end the dictionary, found \(describeCharacter(at: pos))")
                : endsInside("; expected '}'")
            return finishFailed()
        }
        pos += 1
        return .returned(pop())
    }

    /// The innermost collection failed: it returns nothing to its parent.
    private mutating func finishFailed() -> Step {
        stack.removeLast()
        return .returned(nil)
    }

    // MARK: Whitespace and comments

    /// CF's advanceToNonSpace: whitespace (tab to carriage return, space, U+2028, U+2029) and
    /// comments; an unterminated `/*` runs to the end. Returns whether anything follows.
    mutating func skipSpace() -> Bool {
        while pos < end {
            switch text[pos] {
            case 0x09...0x0D, 0x20:
                pos += 1
            case 0xE2 where isLineOrParagraphSeparator(at: pos):
                pos += 3
            case UInt8(ascii: "/"):
                guard pos + 1 < end else { return true }
                if text[pos + 1] == UInt8(ascii: "/") {
                    pos += 2
                    while pos < end, text[pos] != 0x0A, text[pos] != 0x0D, !isLineOrParagraphSeparator(at: pos) { pos += 1 }
                } else if text[pos + 1] == UInt8(ascii: "*") {
                    let start = pos
                    pos += 2
                    var closed = false
                    while pos < end {
                        if text[pos] == UInt8(ascii: "*"), pos + 1 < end, text[pos + 1] == UInt8(ascii: "/") {
                            pos += 2
                            closed = true
                            break
                        }
                        pos += 1
                    }
                    if !closed, strict {
                        // CF takes the rest of the text for the comment; a lint says so.
                        limitError = limitError ?? error(.truncated, "unterminated /* comment (Core Foundation reads the rest of the text as a comment)", at: start)
                    }
                } else {
                    return true
                }
            default:
                return true
            }
        }
        return false
    }

    /// U+2028 and U+2029, which CF counts as whitespace.
    @inline(__always)
    private func isLineOrParagraphSeparator(at i: Int) -> Bool {
        i + 2 < end && text[i] == 0xE2 && text[i + 1] == 0x80 && (text[i + 2] == 0xA8 || text[i + 2] == 0xA9)
    }

    // MARK: Scalars

    /// CF's unquoted characters: ASCII letters and digits, and `_ $ / : . -`; beyond CF, any
    /// character past ASCII too, as GNUstep and dd-plist write them.
    @inline(__always)
    private func isUnquoted(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        case 0x80...:
            return beyondCoreFoundation
        default:
            return false
        }
    }

    /// CF's parsePlistString with no object required: a quoted or unquoted string, or nil.
    private mutating func parseKey() -> PropertyListValue? {
        guard skipSpace() else { return nil }
        let c = text[pos]
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            pos += 1
            return parseQuoted(quote: c)
        }
        return isUnquoted(c) ? parseUnquoted() : nil
    }

    private mutating func countObject() -> Bool {
        objectCount += 1
        guard objectCount <= options.maximumObjectCount else {
            limitError = limitError ?? error(.limitExceeded, "more than \(options.maximumObjectCount) values")
            return false
        }
        return true
    }

    private mutating func countBytes(_ n: Int) -> Bool {
        decodedSize += n
        guard decodedSize <= options.maximumDecodedSize else {
            limitError = limitError ?? error(.limitExceeded, "more than \(options.maximumDecodedSize) bytes of strings and data")
            return false
        }
        return true
    }

    private mutating func parseUnquoted() -> PropertyListValue? {
        let start = pos
        var high: UInt8 = 0
        while pos < end, isUnquoted(text[pos]) {
            high |= text[pos]
            pos += 1
        }
        if high >= 0x80 { noteBeyond("an unquoted string with characters past ASCII", at: start) }
        guard countObject(), countBytes(pos - start) else { return nil }
        return .string(String(decoding: UnsafeBufferPointer(rebasing: text[start..<pos]), as: UTF8.self))
    }

    /// CF's parseQuotedPlistString, from just after the opening quote. Unterminated, it fails
    /// with the cursor back just after the quote, where CF leaves it.
    private mutating func parseQuoted(quote: UInt8) -> PropertyListValue? {
        let start = pos
        while pos < end, text[pos] != quote, text[pos] != UInt8(ascii: "\\") { pos += 1 }
        if pos < end, text[pos] == quote {
            let slice = UnsafeBufferPointer(rebasing: text[start..<pos])
            pos += 1
            guard countObject(), countBytes(slice.count) else { return nil }
            return string(slice)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<pos]))
        while true {
            guard pos < end else {
                pos = start
                lastError = error(.truncated, "unterminated quoted string", at: start - 1)
                return nil
            }
            let b = text[pos]
            if b == quote {
                pos += 1
                break
            }
            if b != UInt8(ascii: "\\") {
                let runStart = pos
                while pos < end, text[pos] != quote, text[pos] != UInt8(ascii: "\\") { pos += 1 }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<pos]))
                continue
            }
            pos += 1
            guard pos < end else {
                lastError = error(.truncated, "unterminated backslash sequence")
                return nil
            }
            guard slashed() else { return nil }
        }
        guard countObject(), countBytes(scratch.count) else { return nil }
        let bytes = scratch
        return bytes.withUnsafeBufferPointer { string($0) }
    }

    /// A string from generalized UTF-8: `.string` when its code units are valid UTF-16 (two `\U`
    /// escapes may make a pair), else the code units, which CF keeps (`preservesInvalidUTF16`;
    /// off, such a string is refused).
    private mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> PropertyListValue? {
        if CoreFoundationText.isValidUTF8(bytes) { return .string(String(decoding: bytes, as: UTF8.self)) }
        let units = TextDecoding.utf16Units(ofGeneralizedUTF8: Array(bytes))
        if let valid = String(validating: units, as: UTF16.self) { return .string(valid) }
        guard options.preservesInvalidUTF16 else {
            limitError = limitError ?? error(.invalidValue, "a string holds a lone surrogate (kept when preservesInvalidUTF16 is on, the default)")
            return nil
        }
        return .invalidUTF16String(units)
    }

    /// CF's getSlashedChar, from the character after the backslash, appended to `scratch`:
    /// one to three octal digits (a NeXTSTEP byte, wrapping at 8 bits), `\U` and up to four hex
    /// digits (a UTF-16 code unit), `\a \b \f \n \r \t \v \"` and a backslash before a newline,
    /// and for any other character that character itself.
    private mutating func slashed() -> Bool {
        // The escaped character, which may be several bytes: taken whole.
        let c = text[pos]
        pos += 1
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var byte = c &- UInt8(ascii: "0")
            for _ in 0..<2 {
                guard pos < end, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(text[pos]) else { break }
                byte = byte &<< 3 &+ (text[pos] &- UInt8(ascii: "0"))
                pos += 1
            }
            TextDecoding.appendGeneralizedUTF8(CoreFoundationText.nextStepToUnicode(byte), to: &scratch)
        case UInt8(ascii: "U"):
            var value: UInt32 = 0
            var digits = 0
            while digits < 4, pos < end, let v = Self.hexValue(text[pos]) {
                value = value << 4 | UInt32(v)
                pos += 1
                digits += 1
            }
            TextDecoding.appendGeneralizedUTF8(value, to: &scratch)
        case UInt8(ascii: "a"): scratch.append(0x07)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"), 0x0A: scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "v"): scratch.append(0x0B)
        default:
            if strict, c != UInt8(ascii: "\""), c != UInt8(ascii: "'"), c != UInt8(ascii: "\\"), c != UInt8(ascii: "u"), c != UInt8(ascii: "/"), c != 0x0D {
                limitError = limitError ?? error(.malformed, "unknown escape '\\\(describeEscaped(c))' in a quoted string (Core Foundation reads it as the character itself)", at: pos - 2)
                return false
            }
            // The character itself (a `\'`, `\\`, `\u` or `\q` alike), with its continuation bytes.
            scratch.append(c)
            while pos < end, text[pos] & 0xC0 == 0x80, c >= 0xC0 {
                scratch.append(text[pos])
                pos += 1
            }
        }
        return true
    }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Data

    /// CF's parsePlistData, from just after `<`: pairs of hex digits, with spaces, tabs, line
    /// breaks and U+2028/U+2029 between them, then `>`. On a bad character it fails with the
    /// cursor on that character, where CF leaves it.
    private mutating func parseData() -> PropertyListValue? {
        let open = pos - 1
        if beyondCoreFoundation, pos < end, text[pos] == UInt8(ascii: "*") || text[pos] == UInt8(ascii: "[") {
            return parseGNUstepValue(open: open)
        }
        var bytes: [UInt8] = []
        while pos < end {
            let c = text[pos]
            if c == UInt8(ascii: ">") { break }
            if let high = Self.hexValue(c) {
                pos += 1
                guard pos < end, let low = Self.hexValue(text[pos]) else {
                    lastError = error(.malformed, "odd number of hex digits in data")
                    return nil
                }
                bytes.append(high << 4 | low)
                pos += 1
            } else if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                pos += 1
            } else if isLineOrParagraphSeparator(at: pos) {
                pos += 3
            } else {
                lastError = error(.malformed, "unexpected \(describeCharacter(at: pos)) in data")
                return nil
            }
        }
        guard pos < end else {
            lastError = error(.truncated, "unterminated data: expected '>'", at: open)
            return nil
        }
        pos += 1
        guard countObject(), countBytes(bytes.count) else { return nil }
        return .data(Data(bytes))
    }

    // MARK: Beyond Core Foundation

    /// Records that the document was read where CF refuses it: a warning, once per document.
    private mutating func noteBeyond(_ what: String, at offset: Int) {
        guard !warnings.contains(where: { $0.code == .beyondCoreFoundation }) else { return }
        let (line, column) = TextDecoding.lineColumn(of: offset, in: text)
        warnings.append(PropertyListWarning(
            .beyondCoreFoundation, "read \(what) at line \(line), column \(column); Core Foundation refuses this document",
            at: .lineColumn(line: line, column: column)))
    }

    /// GNUstep's `<*I…>`, `<*R…>`, `<*B…>`, `<*D…>` and `<[base64]>`, from just after `<`.
    private mutating func parseGNUstepValue(open: Int) -> PropertyListValue? {
        let isBase64 = text[pos] == UInt8(ascii: "[")
        let close = isBase64 ? UInt8(ascii: "]") : UInt8(ascii: ">")
        pos += 1
        guard isBase64 || pos < end else {
            lastError = error(.truncated, "unterminated GNUstep value: expected '>'", at: open)
            return nil
        }
        let type = isBase64 ? 0 : text[pos]
        if !isBase64 { pos += 1 }
        let bodyStart = pos
        while pos < end, text[pos] != close { pos += 1 }
        guard pos < end, !isBase64 || (pos + 1 < end && text[pos + 1] == UInt8(ascii: ">")) else {
            lastError = error(.truncated, isBase64 ? "unterminated base64 data: expected ']>'" : "unterminated GNUstep value: expected '>'", at: open)
            return nil
        }
        let body = UnsafeBufferPointer(rebasing: text[bodyStart..<pos])
        pos += isBase64 ? 2 : 1
        guard countObject() else { return nil }
        let shown = String(decoding: body.prefix(40), as: UTF8.self)
        let value: PropertyListValue
        switch isBase64 ? UInt8(ascii: "[") : type {
        case UInt8(ascii: "["):
            guard let bytes = GNUstepValue.base64(body), countBytes(bytes.count) else {
                lastError = lastError ?? error(.invalidValue, "invalid base64 data", at: open)
                return nil
            }
            value = .data(Data(bytes))
        case UInt8(ascii: "I"):
            guard let integer = GNUstepValue.integer(body) else {
                lastError = error(.invalidValue, "invalid GNUstep integer '\(shown)'", at: open)
                return nil
            }
            value = .integer(integer)
        case UInt8(ascii: "R"):
            guard let real = GNUstepValue.real(body) else {
                lastError = error(.invalidValue, "invalid GNUstep real '\(shown)'", at: open)
                return nil
            }
            value = .real(real)
        case UInt8(ascii: "B"):
            guard body.count == 1, body[0] == UInt8(ascii: "Y") || body[0] == UInt8(ascii: "N") else {
                lastError = error(.invalidValue, "invalid GNUstep boolean '\(shown)': expected Y or N", at: open)
                return nil
            }
            value = .bool(body[0] == UInt8(ascii: "Y"))
        case UInt8(ascii: "D"):
            guard let date = GNUstepValue.date(body) else {
                lastError = error(.invalidValue, "invalid GNUstep date '\(shown)': expected YYYY-MM-DD HH:MM:SS +ZZZZ", at: open)
                return nil
            }
            value = .date(date)
        default:
            lastError = error(.malformed, "unknown GNUstep value type \(describeCharacter(at: bodyStart - 1))", at: open)
            return nil
        }
        noteBeyond("GNUstep's typed value or base64 data", at: open)
        return value
    }
}
