internal import CLibXML2
import Foundation
import PropertyList

/// The state of one XML parse: libxml2's SAX events over the lexer's skeleton build the tree,
/// with the values the lexer read, by the rules CF's parser follows from the nesting
/// (CFPropertyList.c, `parseXMLElement` and the functions it calls):
///
/// - a `<plist>`, at the top or anywhere a value goes, holds exactly one value, which it stands for;
/// - a `<dict>` alternates `<key>` elements and values, and a value may be a `<key>` (read as a
///   string), as may an array element or the root;
/// - a dictionary whose only entry (a later key replacing an earlier one) is `CF$UID` with a
///   number is a UID: the number as CF's `CFNumberGetValue` gives it to a 32-bit integer.
///
/// It lives behind a pointer passed as libxml2's `userData`, so callbacks reach it without
/// retain/release or exclusivity checks. The owner must call `release()`.
struct XMLPropertyListReaderContext {
    typealias Name = XMLPropertyListLexer.Name

    /// An open element that holds other elements.
    struct Frame {
        enum Kind: UInt8 { case document, plist, array, dict }
        var kind: Kind
        /// Where this container's values start on the value stack.
        var start: Int
        /// Where a dictionary's key offsets start in `keyOffsets`.
        var keyStart = 0
    }

    let options: PropertyListReadOptions
    /// The lexer, with the document's text and the values of its scalars.
    let lexer: UnsafePointer<XMLPropertyListLexer>
    /// The libxml2 parser, for positions and for stopping it.
    var parser: xmlParserCtxtPtr?
    var frames: [Frame] = [Frame(kind: .document, start: 0)]
    var stack = XMLValueStack()
    /// The scalar element being read, if any.
    var scalar: Name?
    /// The next of the lexer's scalars.
    var nextScalar = 0
    var objectCount = 0
    var error: PropertyListError?
    /// Keys repeated in a dictionary, found so far.
    var warnings: [PropertyListWarning] = []
    /// Where each key of the open dictionaries starts in the text, innermost last.
    var keyOffsets: [Int] = []

    init(options: PropertyListReadOptions, lexer: UnsafePointer<XMLPropertyListLexer>) {
        self.options = options
        self.lexer = lexer
    }

    /// Frees the storage the context owns. Call once, after parsing.
    mutating func release() {
        stack.release()
    }

    var failed: Bool { error != nil }

    // MARK: - SAX events

    mutating func startElement(_ localName: UnsafePointer<UInt8>) {
        guard error == nil else { return }
        // The skeleton holds only the names the lexer knows.
        guard let name = Self.name(localName) else {
            fail(.malformed, "unknown element <\(String(cString: localName))>", includingCurrent: true)
            return
        }
        if let scalar {
            fail(.malformed, "unexpected <\(name.text)> inside <\(scalar.text)>", includingCurrent: true)
            return
        }
        // Index is safe: the document frame is never popped.
        let frame = frames[frames.count - 1]
        let held = stack.count - frame.start
        switch frame.kind {
        case .document:
            guard held == 0 else {
                fail(.malformed, "more than one value at the top level", includingCurrent: false)
                return
            }
        case .plist:
            guard held == 0 else {
                fail(.malformed, "more than one value in a <plist>", includingCurrent: false)
                return
            }
        case .array:
            break
        case .dict:
            if held & 1 == 0, name != .key {
                fail(.malformed, "<\(name.text)> without a <key> in a <dict>", includingCurrent: false)
                return
            }
        }
        switch name {
        case .plist:
            frames.append(Frame(kind: .plist, start: stack.count))
            return
        case .array, .dict:
            frames.append(Frame(kind: name == .array ? .array : .dict, start: stack.count, keyStart: keyOffsets.count))
        default:
            scalar = name
        }
        objectCount += 1
        guard objectCount <= options.maximumObjectCount else {
            fail(.limitExceeded, "more than \(options.maximumObjectCount) values", includingCurrent: true)
            return
        }
    }

    mutating func endElement() {
        guard error == nil else { return }
        if let element = scalar {
            scalar = nil
            guard nextScalar < lexer.pointee.scalars.count else {
                fail(.malformed, "a value the lexer did not read", includingCurrent: true)
                return
            }
            let read = lexer.pointee.scalars[nextScalar]
            nextScalar += 1
            let frame = frames[frames.count - 1]
            if frame.kind == .dict, (stack.count - frame.start) & 1 == 0, element == .key {
                keyOffsets.append(read.offset)
            }
            stack.push(read.value)
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
            stack.push(.array(stack.popArray(from: frame.start)))
        case .dict:
            let held = stack.count - frame.start
            guard held & 1 == 0 else {
                fail(.malformed, "<key> without a value in a <dict>", includingCurrent: false)
                return
            }
            frames.removeLast()
            let dictionary = resolvingDuplicateKeys(stack.popDictionary(from: frame.start), keyStart: frame.keyStart)
            keyOffsets.removeLast(keyOffsets.count - min(frame.keyStart, keyOffsets.count))
            if dictionary.count == 1, let uid = Self.uid(dictionary) {
                stack.push(.uid(uid))
            } else {
                stack.push(.dictionary(dictionary))
            }
        }
    }

    /// Recognizes a NUL-terminated element name of the skeleton: one letter (`Name.letter`).
    private static func name(_ p: UnsafePointer<UInt8>) -> Name? {
        guard p[0] >= UInt8(ascii: "a"), p[1] == 0 else { return nil }
        return Name(rawValue: p[0] - UInt8(ascii: "a"))
    }

    /// The UID a one-entry dictionary stands for: `CF$UID` with an integer or a real, as CF's
    /// `CFNumberGetValue` gives it to a 32-bit integer (an integer's low 32 bits; a real
    /// truncated, or 0x80000000 when out of range or NaN, as x86 converts it), kept as the
    /// unsigned 32 bits.
    static func uid(_ dictionary: PropertyListDictionary) -> UInt64? {
        guard case .string(let key) = dictionary.keys[0], key == "CF$UID" else { return nil }
        switch dictionary.values[0] {
        case .integer(let i):
            return UInt64(UInt32(truncatingIfNeeded: i.low))
        case .real(let d):
            guard d > -2147483649.0, d < 2147483648.0 else { return 0x8000_0000 }
            return UInt64(UInt32(bitPattern: Int32(d.rounded(.towardZero))))
        default:
            return nil
        }
    }

    /// Reports each key the dictionary holds twice and resolves it as the options say (CF: the
    /// last value).
    private mutating func resolvingDuplicateKeys(_ dictionary: PropertyListDictionary, keyStart: Int) -> PropertyListDictionary {
        let repeats = DuplicateKeys.find(in: dictionary.keys)
        guard !repeats.isEmpty else { return dictionary }
        func location(_ index: Int) -> PropertyListError.Location {
            let i = keyStart + index
            guard i < keyOffsets.count else { return .none }
            let (line, column) = TextDecoding.lineColumn(of: keyOffsets[i], in: lexer.pointee.text)
            return .lineColumn(line: line, column: column)
        }
        let path = keyPath(includingCurrent: false)
        for r in repeats {
            warnings.append(DuplicateKeys.warning(key: dictionary.keys[r.later], at: location(r.later), first: location(r.first),
                                                  keyPath: path, policy: options.duplicateKeys))
        }
        switch options.duplicateKeys {
        case .coreFoundation, .keepLast: return DuplicateKeys.keepingLast(keys: dictionary.keys, values: dictionary.values, repeats: repeats)
        case .keepAll: return dictionary
        }
    }

    // MARK: - Errors

    /// Handles an error libxml2 reports on the skeleton: an element not closed, or closed by the
    /// wrong end tag.
    mutating func libxmlError(_ e: xmlError) {
        guard e.level != XML_ERR_WARNING, error == nil else { return }
        // libxml2's messages may span lines ("...\nBytes: 0xFF"); errors are one line.
        let raw = e.message.map { String(cString: $0) } ?? "XML error \(e.code)"
        var message = raw.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        if e.code == Int32(XML_ERR_DOCUMENT_END.rawValue) || e.code == Int32(XML_ERR_TAG_NOT_FINISHED.rawValue) {
            if let unfinished = unfinishedElement { message = "the document ends inside <\(unfinished)>" }
        }
        fail(.malformed, message, includingCurrent: scalar != nil)
    }

    /// The innermost element still open, if any, for "the document ends inside" messages.
    private var unfinishedElement: String? {
        if let scalar { return scalar.text }
        switch frames[frames.count - 1].kind {
        case .document: return nil
        case .plist: return "plist"
        case .array: return "array"
        case .dict: return "dict"
        }
    }

    /// Records the first error and stops libxml2.
    ///
    /// - Parameter includingCurrent: whether the key path names the element being read (an
    ///   array index or the key whose value it is), not just the container.
    mutating func fail(_ code: PropertyListError.Code, _ message: String, includingCurrent: Bool) {
        guard error == nil else { return }
        error = PropertyListError(code, message, at: currentLocation(), keyPath: keyPath(includingCurrent: includingCurrent))
        if let parser { xmlStopParser(parser) }
    }

    /// Where libxml2 is, as a line and column of the document's text: the tag of the skeleton
    /// it is reading, found in the text.
    func currentLocation() -> PropertyListError.Location {
        guard let parser, let input = parser.pointee.input, let base = input.pointee.base, let cur = input.pointee.cur else { return .none }
        let at = Int(input.pointee.consumed) + (cur - base)
        let l = lexer.pointee
        // The last tag starting at or before libxml2's position.
        var low = 0, high = l.skeletonOffsets.count
        while low < high {
            let mid = (low + high) / 2
            if l.skeletonOffsets[mid] <= at { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return l.textOffsets.first.map { TextDecoding.lineColumn(of: $0, in: l.text) }.map { .lineColumn(line: $0.0, column: $0.1) } ?? .none }
        let (line, column) = TextDecoding.lineColumn(of: Int(l.textOffsets[low - 1]), in: l.text)
        return .lineColumn(line: line, column: column)
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
