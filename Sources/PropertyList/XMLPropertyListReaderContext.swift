internal import CLibXML2
import Foundation

/// The state of one XML parse, driven by libxml2's SAX callbacks.
///
/// It lives behind a pointer passed as libxml2's `userData`, so callbacks reach it without
/// retain/release or exclusivity checks. Values are built on an explicit stack; only `<string>`
/// and `<key>` content becomes a `String`, everything else is parsed from the bytes.
struct XMLPropertyListReaderContext {
    /// The plist elements, by name.
    enum Element: UInt8 {
        case plist, array, dict, key, string, data, date, real, integer, `true`, `false`

        var name: String {
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

        /// Recognizes a NUL-terminated element name by its bytes, without making a String.
        static func named(_ p: UnsafePointer<UInt8>) -> Element? {
            switch p[0] {
            case UInt8(ascii: "k"): return equal(p, "key") ? .key : nil
            case UInt8(ascii: "s"): return equal(p, "string") ? .string : nil
            case UInt8(ascii: "i"): return equal(p, "integer") ? .integer : nil
            case UInt8(ascii: "r"): return equal(p, "real") ? .real : nil
            case UInt8(ascii: "a"): return equal(p, "array") ? .array : nil
            case UInt8(ascii: "t"): return equal(p, "true") ? .true : nil
            case UInt8(ascii: "f"): return equal(p, "false") ? .false : nil
            case UInt8(ascii: "p"): return equal(p, "plist") ? .plist : nil
            case UInt8(ascii: "d"):
                guard p[1] == UInt8(ascii: "a") || p[1] == UInt8(ascii: "i") else { return nil }
                if equal(p, "dict") { return .dict }
                if equal(p, "data") { return .data }
                if equal(p, "date") { return .date }
                return nil
            default: return nil
            }
        }

        @inline(__always)
        private static func equal(_ p: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
            let n = literal.utf8CodeUnitCount
            let l = literal.utf8Start
            for i in 0..<n where p[i] != l[i] { return false }
            return p[n] == 0
        }
    }

    /// An open element that holds other elements.
    struct Frame {
        enum Kind: UInt8 { case document, plist, array, dict }
        var kind: Kind
        /// Where this container's values start on the value stack.
        var start: Int
        /// Where a dictionary's key locations start in `keyLocations`.
        var keyStart = 0
    }

    let options: PropertyListReadOptions
    /// The libxml2 parser, for positions and for stopping it.
    var parser: xmlParserCtxtPtr?
    var frames: [Frame] = [Frame(kind: .document, start: 0)]
    var stack = XMLValueStack()
    /// The scalar element being read, if any, and where it started.
    var scalar: Element?
    var scalarLine = 0
    var scalarColumn = 0
    /// Character data of the current scalar; the storage is reused from element to element.
    private var textBase: UnsafeMutablePointer<UInt8>
    private var textCount = 0
    private var textCapacity = 1024
    var depth = 0
    var objectCount = 0
    var decodedSize = 0
    var error: PropertyListError?
    /// Keys repeated in a dictionary, found so far.
    var warnings: [PropertyListWarning] = []
    /// Where each key of the open dictionaries starts, innermost last.
    var keyLocations: [KeyLocation] = []

    /// Where a `<key>` starts (a struct, not a tuple: tuple arrays are not specialized).
    struct KeyLocation {
        var line: Int32
        var column: Int32
    }
    /// True while libxml2 is inside our error callback, where stopping the parser is unsafe.
    var inErrorCallback = false
    /// How many faults libxml2 reported that CF reads through and so do we; when there are any,
    /// libxml2's "not well-formed" verdict is ours to ignore.
    var toleratedFaults = 0

    init(options: PropertyListReadOptions) {
        self.options = options
        textBase = .allocate(capacity: textCapacity)
    }

    /// Frees the storage the context owns. Call once, after parsing.
    mutating func release() {
        stack.release()
        textBase.deallocate()
        textCapacity = 0
        textCount = 0
    }

    private var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: textBase, count: textCount) }

    private mutating func appendText(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard let source = chunk.baseAddress, !chunk.isEmpty else { return }
        if textCount + chunk.count > textCapacity {
            let newCapacity = max(textCapacity * 2, textCount + chunk.count)
            let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBase.initialize(from: textBase, count: textCount)
            textBase.deallocate()
            textBase = newBase
            textCapacity = newCapacity
        }
        (textBase + textCount).initialize(from: source, count: chunk.count)
        textCount += chunk.count
    }

    var failed: Bool { error != nil }

    // MARK: - SAX events

    mutating func startElement(_ name: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?) {
        guard error == nil else { return }
        guard prefix == nil, let element = Element.named(name) else {
            let shown = String(cString: name)
            let full = prefix.map { String(cString: $0) + ":" + shown } ?? shown
            fail(.malformed, "unknown element <\(full)>", includingCurrent: true)
            return
        }
        if let scalar {
            fail(.malformed, "unexpected <\(element.name)> inside <\(scalar.name)>", includingCurrent: true)
            return
        }
        // Index is safe: the document frame is never popped.
        let frame = frames[frames.count - 1]
        let held = stack.count - frame.start
        if element == .plist {
            guard frame.kind == .document, held == 0 else {
                fail(.malformed, "unexpected <plist> inside a value", includingCurrent: true)
                return
            }
            frames.append(Frame(kind: .plist, start: stack.count))
            return
        }
        switch frame.kind {
        case .document, .plist:
            guard held == 0, element != .key else {
                fail(.malformed, element == .key ? "<key> outside a <dict>" : "more than one value at the top level", includingCurrent: false)
                return
            }
        case .array:
            guard element != .key else {
                fail(.malformed, "<key> inside an <array>", includingCurrent: true)
                return
            }
        case .dict:
            let expectingKey = held & 1 == 0
            if expectingKey, element != .key {
                fail(.malformed, "<\(element.name)> without a <key> in a <dict>", includingCurrent: false)
                return
            }
            if !expectingKey, element == .key {
                fail(.malformed, "<key> without a value in a <dict>", includingCurrent: true)
                return
            }
        }
        objectCount += 1
        guard objectCount <= options.maximumObjectCount else {
            fail(.limitExceeded, "more than \(options.maximumObjectCount) values", includingCurrent: true)
            return
        }
        switch element {
        case .array, .dict:
            depth += 1
            guard depth <= options.maximumDepth else {
                fail(.limitExceeded, "nesting deeper than \(options.maximumDepth)", includingCurrent: true)
                return
            }
            frames.append(Frame(kind: element == .array ? .array : .dict, start: stack.count, keyStart: keyLocations.count))
        default:
            scalar = element
            textCount = 0
            // Read straight from the input: this runs for every value.
            if let input = parser?.pointee.input {
                scalarLine = Int(input.pointee.line)
                scalarColumn = Int(input.pointee.col)
            }
        }
    }

    mutating func endElement() {
        guard error == nil else { return }
        if let element = scalar {
            guard let value = finishScalar(element) else { return }
            scalar = nil
            stack.push(value)
            if element == .key {
                keyLocations.append(KeyLocation(line: Int32(truncatingIfNeeded: scalarLine), column: Int32(truncatingIfNeeded: scalarColumn)))
            }
            return
        }
        let frame = frames[frames.count - 1]
        switch frame.kind {
        case .document:
            // libxml2 balances tags, so this cannot happen; refuse rather than trust it.
            fail(.malformed, "unbalanced end tag", includingCurrent: false)
        case .plist:
            guard stack.count - frame.start == 1 else {
                fail(.malformed, "empty <plist>", includingCurrent: false)
                return
            }
            frames.removeLast()
        case .array:
            frames.removeLast()
            depth -= 1
            stack.push(.array(stack.popArray(from: frame.start)))
        case .dict:
            let held = stack.count - frame.start
            guard held & 1 == 0 else {
                fail(.malformed, "<key> without a value in a <dict>", includingCurrent: false)
                return
            }
            frames.removeLast()
            depth -= 1
            if held == 2, let uid = uidValue(at: frame.start) {
                _ = stack.popLast()
                _ = stack.popLast()
                stack.push(.uid(uid))
            } else {
                stack.push(.dictionary(resolvingDuplicateKeys(stack.popDictionary(from: frame.start), keyStart: frame.keyStart)))
            }
            keyLocations.removeLast(keyLocations.count - min(frame.keyStart, keyLocations.count))
        }
    }

    mutating func characters(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard error == nil else { return }
        if let scalar, scalar != .true, scalar != .false {
            appendText(chunk)
            return
        }
        guard XMLScalarParser.isBlank(chunk) else {
            if let scalar {
                fail(.malformed, "text inside <\(scalar.name)/>", includingCurrent: true)
            } else {
                fail(.malformed, "text outside a value", includingCurrent: true)
            }
            return
        }
    }

    /// Refuses every entity declaration, internal or external: no XXE, no billion laughs.
    mutating func entityDeclaration(_ name: UnsafePointer<UInt8>?) {
        guard error == nil else { return }
        let shown = name.map { String(cString: $0) } ?? "?"
        fail(.malformed, "entity declarations are not allowed (<!ENTITY \(shown)>)", includingCurrent: false)
    }

    /// Handles an error or warning libxml2 reports.
    ///
    /// Character references to characters XML forbids (`&#0;`, `&#8;`) and raw control
    /// characters are faults CF's own parser reads through, and Apple-written files contain
    /// them; those are read as the character. Anything else is fatal.
    mutating func libxmlError(_ e: xmlError) {
        inErrorCallback = true
        defer { inErrorCallback = false }
        guard e.level != XML_ERR_WARNING else { return }
        if e.domain == Int32(XML_FROM_PARSER.rawValue), e.code == Int32(XML_ERR_INVALID_CHAR.rawValue),
           let message = e.message, let scalar = Self.toleratedCharacter(message: message, value: e.int1)
        {
            toleratedFaults += 1
            let utf8 = Array(String(Character(scalar)).utf8)
            utf8.withUnsafeBufferPointer { characters($0) }
            return
        }
        guard error == nil else { return }
        // libxml2's messages may span lines ("...\nBytes: 0xFF"); errors are one line.
        let raw = e.message.map { String(cString: $0) } ?? "XML error \(e.code)"
        var message = raw.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        if e.code == Int32(XML_ERR_DOCUMENT_END.rawValue) {
            // libxml2's push parser says "Extra content" also when the input simply stops.
            if let unfinished = unfinishedElement {
                message = "the document ends inside <\(unfinished)>"
            } else if stack.count == 0 {
                message = "no property list value in the document"
            }
        }
        let location: PropertyListError.Location = e.line > 0
            ? .lineColumn(line: Int(e.line), column: Int(e.int2))
            : currentLocation()
        fail(.malformed, message, at: location, includingCurrent: scalar != nil)
    }

    /// The innermost element still open, if any, for "the document ends inside" messages.
    private var unfinishedElement: String? {
        if let scalar { return scalar.name }
        switch frames[frames.count - 1].kind {
        case .document: return nil
        case .plist: return "plist"
        case .array: return "array"
        case .dict: return "dict"
        }
    }

    /// libxml2 silently drops `&amp;`-style references once a document is not well-formed, and
    /// a tolerated fault made it so; when that fault is the only one, it is made well-formed again.
    mutating func willExpandPredefinedEntity() {
        if toleratedFaults > 0, error == nil, let parser { parser.pointee.wellFormed = 1 }
    }

    private static func toleratedCharacter(message: UnsafeMutablePointer<CChar>, value: Int32) -> Unicode.Scalar? {
        guard strncmp(message, "xmlParseCharRef: invalid xmlChar value", 38) == 0
            || strncmp(message, "PCDATA invalid Char value", 25) == 0
        else { return nil }
        // Surrogates and values past U+10FFFF are not characters at all; CF refuses them too.
        guard value >= 0, let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
        return scalar
    }

    // MARK: - Values

    private mutating func finishScalar(_ element: Element) -> PropertyListValue? {
        switch element {
        case .key, .string:
            decodedSize += text.count
            guard decodedSize <= options.maximumDecodedSize else {
                fail(.limitExceeded, "more than \(options.maximumDecodedSize) bytes of strings and data", includingCurrent: true, atScalar: true)
                return nil
            }
            return .string(String(decoding: text, as: UTF8.self))
        case .integer:
            guard let parsed = XMLScalarParser.parseInteger(text) else {
                fail(.invalidValue, "invalid <integer> \(shownText)", includingCurrent: true, atScalar: true)
                return nil
            }
            return .integer(parsed)
        case .real:
            guard let parsed = XMLScalarParser.parseReal(text) else {
                fail(.invalidValue, "invalid <real> \(shownText)", includingCurrent: true, atScalar: true)
                return nil
            }
            return .real(parsed)
        case .date:
            let range = XMLScalarParser.trimmed(text)
            guard let parsed = XMLDateFormat.parse(UnsafeBufferPointer(rebasing: text[range])) else {
                fail(.invalidValue, "invalid <date> \(shownText), expected YYYY-MM-DDTHH:MM:SSZ", includingCurrent: true, atScalar: true)
                return nil
            }
            return .date(parsed)
        case .data:
            let text = self.text
            var data = Data(count: XMLBase64.maximumDecodedCount(text.count))
            let outcome = data.withUnsafeMutableBytes { out in
                Result { () throws(XMLBase64.DecodeError) in try XMLBase64.decode(text, into: out) }
            }
            let decoded: Int
            switch outcome {
            case .success(let count):
                decoded = count
            case .failure(.invalidByte(let b, _)):
                fail(.invalidValue, "invalid base64 in <data>: unexpected byte 0x\(String(b, radix: 16, uppercase: true))", includingCurrent: true, atScalar: true)
                return nil
            case .failure(.badLength):
                fail(.invalidValue, "invalid base64 in <data>: misplaced padding or truncated", includingCurrent: true, atScalar: true)
                return nil
            }
            data.count = decoded
            decodedSize += decoded
            guard decodedSize <= options.maximumDecodedSize else {
                fail(.limitExceeded, "more than \(options.maximumDecodedSize) bytes of strings and data", includingCurrent: true, atScalar: true)
                return nil
            }
            return .data(data)
        case .true:
            return .bool(true)
        case .false:
            return .bool(false)
        case .plist, .array, .dict:
            return nil
        }
    }

    /// The text of the current scalar as shown in messages: quoted and cut short.
    private var shownText: String {
        let limit = 40
        let shown = String(decoding: UnsafeBufferPointer(rebasing: text.prefix(limit)), as: UTF8.self)
        return "\"" + shown + (text.count > limit ? "…" : "") + "\""
    }

    /// Reports each key the dictionary holds twice and resolves it as the options say.
    private mutating func resolvingDuplicateKeys(_ dictionary: PropertyListDictionary, keyStart: Int) -> PropertyListDictionary {
        let repeats = DuplicateKeys.find(in: dictionary.keys)
        guard !repeats.isEmpty else { return dictionary }
        func location(_ index: Int) -> PropertyListError.Location {
            let i = keyStart + index
            guard i < keyLocations.count else { return .none }
            return .lineColumn(line: Int(keyLocations[i].line), column: Int(keyLocations[i].column))
        }
        let path = keyPath(includingCurrent: false)
        for r in repeats {
            warnings.append(DuplicateKeys.warning(key: dictionary.keys[r.later], at: location(r.later), first: location(r.first),
                                                  keyPath: path, policy: options.duplicateKeys))
        }
        switch options.duplicateKeys {
        case .keepLast: return DuplicateKeys.keepingLast(keys: dictionary.keys, values: dictionary.values, repeats: repeats)
        case .keepAll: return dictionary
        }
    }

    /// `<dict><key>CF$UID</key><integer>N</integer></dict>` is how XML spells a keyed-archive UID.
    private func uidValue(at start: Int) -> UInt64? {
        guard case .string(let key) = stack[start], key == "CF$UID",
              case .integer(let n) = stack[start + 1]
        else { return nil }
        return n.uint64Value
    }

    // MARK: - Errors

    /// Records the first error and stops libxml2.
    ///
    /// - Parameters:
    ///   - includingCurrent: whether the key path names the element being read (an array index
    ///     or the key whose value it is), not just the container.
    ///   - atScalar: whether to point at the start of the current scalar element rather than at
    ///     libxml2's position.
    mutating func fail(
        _ code: PropertyListError.Code, _ message: String, at location: PropertyListError.Location? = nil,
        includingCurrent: Bool, atScalar: Bool = false
    ) {
        guard error == nil else { return }
        let resolved: PropertyListError.Location = location
            ?? (atScalar ? .lineColumn(line: scalarLine, column: scalarColumn) : currentLocation())
        error = PropertyListError(code, message, at: resolved, keyPath: keyPath(includingCurrent: includingCurrent))
        guard let parser else { return }
        if inErrorCallback {
            // libxml2 may still touch its input after the callback returns; leaving recovery
            // mode makes it disable further events itself, which is safe.
            parser.pointee.recovery = 0
        } else {
            xmlStopParser(parser)
        }
    }

    func currentLocation() -> PropertyListError.Location {
        guard let parser else { return .none }
        return .lineColumn(line: Int(xmlSAX2GetLineNumber(parser)), column: Int(xmlSAX2GetColumnNumber(parser)))
    }

    /// The path from the root to the element being read, such as `["items", "[3]", "name"]`.
    func keyPath(includingCurrent: Bool) -> [String] {
        var path: [String] = []
        for (i, frame) in frames.enumerated() where frame.kind == .array || frame.kind == .dict {
            let innermost = i == frames.count - 1
            let end = innermost ? stack.count : frames[i + 1].start
            let held = end - frame.start
            if frame.kind == .array {
                if !innermost || includingCurrent { path.append("[\(held)]") }
            } else if held & 1 == 1, case .string(let key) = stack[end - 1] {
                path.append(key)
            }
        }
        return path
    }
}
