import Foundation

/// Reads a property list in any supported format, detected from its bytes.
public struct PropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Reads `data`, whose format is found as Core Foundation finds it, and for text from the
    /// name of the file it came from.
    ///
    /// CF tries, in turn, a binary property list (when the data starts with `bplist0`), XML,
    /// and OpenStep, and the first that reads the data gives the value (CFPropertyList.c,
    /// `_CFPropertyListCreateWithData`); so does this reader. JSON, which CF does not read, is
    /// tried last, so that whatever CF reads is read as CF reads it (`42` is the OpenStep string
    /// "42") and a JSON document CF refuses (`[1, 2]`, `{"a": 1}`) is still read. A file whose
    /// extension is `json` is read as JSON (binary and XML still known by their first bytes),
    /// so its errors are JSON's and what `unarchive --to json` wrote comes back as JSON.
    ///
    /// - Parameters:
    ///   - data: the whole document, in any of the four formats.
    ///   - fileExtension: the input file's extension (`json`, `plist`), or nil.
    /// - Returns: the root value and the format it was read from.
    /// - Throws: `PropertyListError` saying what is wrong and where: the error of the format the
    ///   data looks most like (see `PropertyListFormat.detect`).
    public func read(_ data: Data, fileExtension: String? = nil) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
        var ignored: [PropertyListWarning] = []
        return try read(data, fileExtension: fileExtension, warnings: &ignored)
    }

    /// `read(_:fileExtension:)`, adding what the reader accepted but a person should know (a
    /// key repeated in a dictionary) to `warnings`.
    ///
    /// - Parameters:
    ///   - data: the bytes of the property list.
    ///   - fileExtension: the extension of the file they came from, if any (a `.json` file is
    ///     read as JSON).
    ///   - preferringJSON: try JSON first when the text may be JSON, for input that is JSON by
    ///     contract (what `unarchive --to json` writes, read back by `archive -`).
    ///   - warnings: where what the reader accepted but a person should know is added.
    public func read(_ data: Data, fileExtension: String? = nil, preferringJSON: Bool = false,
                     warnings: inout [PropertyListWarning]) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
        try options.checkInputSize(data.count)
        if fileExtension?.lowercased() == "json", let format = Self.jsonFileFormat(data) {
            return (try read(data, as: format, warnings: &warnings), format)
        }
        if preferringJSON, PropertyListFormat.detect(data) == .json || PropertyListFormat.mayBeJSON(data) {
            var found: [PropertyListWarning] = []
            if let value = try? JSONPropertyListReader(options: options).read(data, warnings: &found) {
                warnings += found
                return (value, .json)
            }
        }
        return try readInCoreFoundationOrder(data, warnings: &warnings) { data throws(PropertyListError) in
            try BinaryPropertyListReader(options: options).read(data)
        }
    }

    /// The format of a file named `.json`: binary or XML when its first bytes say so, else JSON.
    private static func jsonFileFormat(_ data: Data) -> PropertyListFormat? {
        switch PropertyListFormat.detect(data) {
        case .binary: .binary
        case .xml: .xml
        default: .json
        }
    }

    /// Tries the formats in CF's order, then JSON; `binary` reads a binary plist.
    private func readInCoreFoundationOrder(_ data: Data, warnings: inout [PropertyListWarning],
                                           binary: (Data) throws(PropertyListError) -> PropertyListValue) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
        var failures: [(format: PropertyListFormat, error: PropertyListError)] = []
        if data.starts(with: Self.binaryMagic) {
            do throws(PropertyListError) {
                return (try binary(data), .binary)
            } catch {
                // CF reads it on as text (`bplist00` alone is the OpenStep string "bplist00");
                // a strict reading calls it the broken binary property list it looks like.
                if options.requiresWellFormedInput { throw error }
                failures.append((.binary, error))
            }
        }
        var found: [PropertyListWarning] = []
        var xmlRefusal: PropertyListError?
        do throws(PropertyListError) {
            let value = try readXML(data, warnings: &found, beyondCoreFoundation: false)
            warnings += found
            return (value, .xml)
        } catch {
            xmlRefusal = error
            if error != XMLPropertyListLexer.notXML { failures.append((.xml, error)) }
        }
        found = []
        let openStep = OpenStepPropertyListReader(options: options)
        var openStepRefusal: PropertyListError?
        do throws(PropertyListError) {
            let value = try openStep.read(data, beyondCoreFoundation: false, warnings: &found)
            warnings += found
            return (value, .openStep)
        } catch {
            openStepRefusal = error
            failures.append((.openStep, error))
        }
        // CF refuses the bytes: what other writers mean by them, with a warning that says so.
        found = []
        if let xmlRefusal, options.readsXMLBeyondCoreFoundation(after: xmlRefusal, data: data),
           let value = try? readXML(data, warnings: &found, beyondCoreFoundation: true, refusedWith: xmlRefusal) {
            warnings += found
            return (value, .xml)
        }
        found = []
        if let openStepRefusal, options.readsBeyondCoreFoundation(after: openStepRefusal),
           let value = try? openStep.read(data, beyondCoreFoundation: true, refusedWith: openStepRefusal, warnings: &found) {
            warnings += found
            return (value, .openStep)
        }
        let detected = PropertyListFormat.detect(data)
        if detected == .json || PropertyListFormat.mayBeJSON(data) {
            found = []
            do throws(PropertyListError) {
                let value = try JSONPropertyListReader(options: options).read(data, warnings: &found)
                warnings += found
                return (value, .json)
            } catch {
                failures.append((.json, error))
            }
        }
        // The error of the format the data looks like, else the first one met.
        if data.isEmpty { throw PropertyListError(.unrecognizedFormat, "empty input", at: .byteOffset(0)) }
        if let detected, let failure = failures.first(where: { $0.format == detected }) { throw failure.error }
        if detected == nil { throw PropertyListError(.unrecognizedFormat, "not a property list", at: .byteOffset(0)) }
        throw failures.first?.error ?? PropertyListError(.unrecognizedFormat, "not a property list", at: .byteOffset(0))
    }

    static let binaryMagic = Data("bplist".utf8)

    /// Reads XML with the reader PropertyListXML registers (see `XMLReaderRegistration`).
    /// Without one, XML asked for (`requested`) or input that looks like XML is refused, and
    /// other input is not XML, as the reader's lexer would find.
    /// With `beyondCoreFoundation`, one reading only: by CF's rules (false), or beyond them (true),
    /// failing with `refusedWith` (see `XMLPropertyListReading`); without, the reader's own.
    private func readXML(_ data: Data, warnings: inout [PropertyListWarning], requested: Bool = false,
                         beyondCoreFoundation: Bool? = nil, refusedWith: PropertyListError? = nil) throws(PropertyListError) -> PropertyListValue {
        guard let reader = XMLReaderRegistration.reader else {
            throw requested || PropertyListFormat.detect(data) == .xml ? XMLReaderRegistration.missingReader : XMLPropertyListLexer.notXML
        }
        guard let beyondCoreFoundation else { return try reader.read(data, options: options, warnings: &warnings) }
        return try reader.read(data, options: options, beyondCoreFoundation: beyondCoreFoundation, refusedWith: refusedWith, warnings: &warnings)
    }

    /// Checks `data` as `read(_:fileExtension:warnings:)` reads it, with the same errors,
    /// warnings and limits, and returns only the format: a binary property list is checked
    /// without building its tree (see `BinaryPropertyListReader.validate(_:)`).
    public func validate(_ data: Data, fileExtension: String? = nil, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListFormat {
        try options.checkInputSize(data.count)
        if fileExtension?.lowercased() == "json", let format = Self.jsonFileFormat(data) {
            try validate(data, as: format, warnings: &warnings)
            return format
        }
        return try readInCoreFoundationOrder(data, warnings: &warnings) { data throws(PropertyListError) in
            try BinaryPropertyListReader(options: options).validate(data)
            return .null
        }.format
    }

    /// Checks `data` as the given format, as `read(_:as:warnings:)` reads it.
    public func validate(_ data: Data, as format: PropertyListFormat, warnings: inout [PropertyListWarning]) throws(PropertyListError) {
        if format == .binary {
            try options.checkInputSize(data.count)
            try BinaryPropertyListReader(options: options).validate(data)
            return
        }
        _ = try read(data, as: format, warnings: &warnings)
    }

    /// Reads only what the value at `keyPath` needs: for binary input, the objects on the path
    /// and in the value (see `BinaryPropertyListReader.read(_:at:)`); other formats are read
    /// whole, as `read(_:fileExtension:)` reads them, and then followed.
    ///
    /// - Returns: the value, nil when the path names nothing, and the format detected.
    public func read(_ data: Data, at keyPath: PropertyListKeyPath, fileExtension: String? = nil) throws(PropertyListError) -> (value: PropertyListValue?, format: PropertyListFormat) {
        try options.checkInputSize(data.count)
        if fileExtension?.lowercased() != "json", data.starts(with: Self.binaryMagic),
           let found = try? BinaryPropertyListReader(options: options).read(data, at: keyPath) {
            return (found, .binary)
        }
        let (value, format) = try read(data, fileExtension: fileExtension)
        return (value.value(at: keyPath), format)
    }

    /// Reads `data` as the given format.
    public func read(_ data: Data, as format: PropertyListFormat) throws(PropertyListError) -> PropertyListValue {
        var ignored: [PropertyListWarning] = []
        return try read(data, as: format, warnings: &ignored)
    }

    /// Reads `data` as the given format, collecting warnings.
    public func read(_ data: Data, as format: PropertyListFormat, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try options.checkInputSize(data.count)
        switch format {
        case .binary: return try BinaryPropertyListReader(options: options).read(data)
        case .xml: return try readXML(data, warnings: &warnings, requested: true)
        case .openStep: return try OpenStepPropertyListReader(options: options).read(data, warnings: &warnings)
        case .json: return try JSONPropertyListReader(options: options).read(data, warnings: &warnings)
        }
    }
}
