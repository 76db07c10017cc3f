import Foundation

/// What the JSON and OpenStep parsers share: a cursor over validated UTF-8, the value and
/// content counts checked against the limits, a stack of open collections, and errors that say
/// line, column and key path.
///
/// Both parsers keep their own stack of open collections instead of recursing, so a deep
/// document costs heap, never the thread's stack, whatever depth limit the caller allows.
protocol TextPropertyListParser {
    associatedtype Kind: TextCollectionKind
    init(text: UnsafeBufferPointer<UInt8>, options: PropertyListReadOptions)
    var text: UnsafeBufferPointer<UInt8> { get }
    var end: Int { get }
    var pos: Int { get set }
    var options: PropertyListReadOptions { get }
    var objectCount: Int { get set }
    var decodedSize: Int { get set }
    var stack: [OpenTextCollection<Kind>] { get set }
    /// Repeated keys found so far.
    var warnings: [PropertyListWarning] { get set }
    /// A collection the document opens without a bracket (a .strings file's dictionary), which
    /// "ends inside" messages cannot point at.
    static var bracelessKind: Kind? { get }
    mutating func parseDocument() throws(PropertyListError) -> PropertyListValue
}

/// The kinds of collection a text format has.
protocol TextCollectionKind: Equatable {
    /// Arrays show up in key paths as `[index]`; the others by the key being read.
    var isArray: Bool { get }
    /// The word for it in messages: "array", "object", "dictionary".
    var noun: String { get }
}

/// A collection whose closing bracket has not been read yet.
struct OpenTextCollection<Kind: TextCollectionKind> {
    let kind: Kind
    /// Where it opened, for "ends inside" messages.
    let start: Int
    /// A dictionary's keys; one more than `values` while a value is being read.
    var keys: [PropertyListValue] = []
    var values: [PropertyListValue] = []
    /// Where each key starts, for the warning about a repeated one.
    var keyOffsets: [Int] = []

    /// Adds a dictionary key read at `offset`.
    mutating func appendKey(_ key: PropertyListValue, at offset: Int) {
        keys.append(key)
        keyOffsets.append(offset)
    }
}

extension TextPropertyListParser {
    static var bracelessKind: Kind? { nil }

    /// Reads `data` (UTF-8, UTF-16 or UTF-32, with or without a byte-order mark) as one document.
    static func parse(_ data: Data, options: PropertyListReadOptions, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try options.checkInputSize(data.count)
        let result = TextDecoding.withUTF8Text(data) { text -> Result<(PropertyListValue, [PropertyListWarning]), PropertyListError> in
            var parser = Self(text: text, options: options)
            return Result { () throws(PropertyListError) -> (PropertyListValue, [PropertyListWarning]) in
                let value = try parser.parseDocument()
                return (value, parser.warnings)
            }
        }
        let (value, found) = try result.get()
        warnings += found
        return value
    }

    /// Opens a collection at `pos`, within the depth and value limits.
    mutating func push(_ kind: Kind) throws(PropertyListError) {
        guard stack.count < options.maximumDepth else {
            throw error(.limitExceeded, "nesting is deeper than the limit of \(options.maximumDepth)")
        }
        try countObject()
        var frame = OpenTextCollection(kind: kind, start: pos)
        if !kind.isArray {
            // Room for a small record's members at once, rather than growing one by one.
            frame.keys.reserveCapacity(4)
            frame.values.reserveCapacity(4)
            frame.keyOffsets.reserveCapacity(4)
        }
        stack.append(frame)
    }

    /// Closes the innermost collection: an array, or a dictionary of the keys and values read.
    /// A key read twice is reported, and resolved as `options.duplicateKeys` says.
    mutating func pop() -> PropertyListValue {
        let frame = stack.removeLast()
        if frame.kind.isArray { return .array(frame.values) }
        let repeats = DuplicateKeys.find(in: frame.keys)
        guard !repeats.isEmpty else { return .dictionary(PropertyListDictionary(keys: frame.keys, values: frame.values)) }
        let path = keyPath()
        for r in repeats {
            let (line, column) = TextDecoding.lineColumn(of: frame.keyOffsets[r.later], in: text)
            let (firstLine, firstColumn) = TextDecoding.lineColumn(of: frame.keyOffsets[r.first], in: text)
            warnings.append(DuplicateKeys.warning(key: frame.keys[r.later], at: .lineColumn(line: line, column: column),
                                                  first: .lineColumn(line: firstLine, column: firstColumn), keyPath: path,
                                                  policy: options.duplicateKeys))
        }
        switch options.duplicateKeys {
        case .keepLast: return .dictionary(DuplicateKeys.keepingLast(keys: frame.keys, values: frame.values, repeats: repeats))
        case .keepAll: return .dictionary(PropertyListDictionary(keys: frame.keys, values: frame.values))
        }
    }

    mutating func countObject() throws(PropertyListError) {
        objectCount += 1
        guard objectCount <= options.maximumObjectCount else {
            throw error(.limitExceeded, "more than \(options.maximumObjectCount) values")
        }
    }

    mutating func countBytes(_ n: Int) throws(PropertyListError) {
        decodedSize += n
        guard decodedSize <= options.maximumDecodedSize else {
            throw error(.limitExceeded, "more than \(options.maximumDecodedSize) bytes of strings and data")
        }
    }

    // MARK: Errors

    /// An error at `offset` (default: the cursor), with the line, column and key path.
    func error(_ code: PropertyListError.Code, _ message: String, at offset: Int? = nil) -> PropertyListError {
        let (line, column) = TextDecoding.lineColumn(of: offset ?? pos, in: text)
        return PropertyListError(code, message, at: .lineColumn(line: line, column: column), keyPath: keyPath())
    }

    /// The text ended inside the innermost open collection.
    func endsInside(_ detail: String) -> PropertyListError {
        guard let frame = stack.last, frame.kind != Self.bracelessKind else {
            return error(.truncated, end == 0 ? "the input is empty" : "the text ends \(detail)")
        }
        let (line, column) = TextDecoding.lineColumn(of: frame.start, in: text)
        return error(.truncated, "the text ends inside the \(frame.kind.noun) opened at line \(line), column \(column)\(detail)")
    }

    /// Where the cursor is in the document: array indexes and the keys being read.
    func keyPath() -> [String] {
        var path: [String] = []
        for frame in stack {
            if frame.kind.isArray {
                path.append("[\(frame.values.count)]")
            } else if frame.keys.count > frame.values.count, let key = frame.keys.last {
                switch key {
                case .string(let s): path.append(s)
                case .invalidUTF16String(let units): path.append(String(decoding: units, as: UTF16.self))
                default: path.append("\(key)")
                }
            }
        }
        return path
    }

    /// The character at `i` as a message shows it: quoted when printable, by code otherwise.
    func describeCharacter(at i: Int) -> String {
        guard i < end else { return "end of text" }
        let c = text[i]
        switch c {
        case 0: return "NUL character"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        case 0x80...:
            var j = i + 1
            while j < end, text[j] & 0xC0 == 0x80 { j += 1 }
            return "'\(String(decoding: UnsafeBufferPointer(rebasing: text[i..<j]), as: UTF8.self))'"
        default: return "character 0x\(TextDecoding.hex(c))"
        }
    }

    /// The character after a backslash, as a message shows the escape.
    func describeEscaped(_ c: UInt8) -> String {
        (0x21...0x7E).contains(c) ? String(Character(Unicode.Scalar(c))) : "x\(TextDecoding.hex(c))"
    }
}
