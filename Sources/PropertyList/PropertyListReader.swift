import Foundation

/// Reads a property list in any supported format, detected from its bytes.
public struct PropertyListReader: Sendable {
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Reads `data`, whose format is detected from its content, and for text from the name of
    /// the file it came from.
    ///
    /// Binary and XML are known by their first bytes. Text is JSON when it opens an array or an
    /// object with a `"key":`, when the file's extension is `json` (a `.json` file is never read
    /// as OpenStep, so its errors are JSON's), or when the whole document is a JSON scalar
    /// (`true`, `42`, `null`, `"a\/b"`) or `{}`: OpenStep would read the scalars as strings, but
    /// JSON is what writes them (`unarchive --to json` of a string, number or bool root), and an
    /// empty object means the same in both. Other text is OpenStep.
    ///
    /// - Parameters:
    ///   - data: the whole document, in any of the four formats.
    ///   - fileExtension: the input file's extension (`json`, `plist`), or nil.
    /// - Returns: the root value and the format it was read from.
    /// - Throws: `PropertyListError` saying what is wrong and where.
    public func read(_ data: Data, fileExtension: String? = nil) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
        var ignored: [PropertyListWarning] = []
        return try read(data, fileExtension: fileExtension, warnings: &ignored)
    }

    /// `read(_:fileExtension:)`, adding what the reader accepted but a person should know (a
    /// key repeated in a dictionary) to `warnings`.
    public func read(_ data: Data, fileExtension: String? = nil, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
        try options.checkInputSize(data.count)
        let isJSONFile = fileExtension?.lowercased() == "json"
        guard let detected = PropertyListFormat.detect(data) else {
            if isJSONFile { return (try read(data, as: .json, warnings: &warnings), .json) }
            throw PropertyListError(.unrecognizedFormat, data.isEmpty ? "empty input" : "not a property list", at: .byteOffset(0))
        }
        guard detected == .openStep else { return (try read(data, as: detected, warnings: &warnings), detected) }
        if isJSONFile { return (try read(data, as: .json, warnings: &warnings), .json) }
        if PropertyListFormat.mayBeJSON(data) {
            var found: [PropertyListWarning] = []
            if let value = try? JSONPropertyListReader(options: options).read(data, warnings: &found) {
                warnings += found
                return (value, .json)
            }
        }
        return (try read(data, as: .openStep, warnings: &warnings), .openStep)
    }

    /// Checks `data` as `read(_:fileExtension:warnings:)` reads it, with the same errors,
    /// warnings and limits, and returns only the format: a binary property list is checked
    /// without building its tree (see `BinaryPropertyListReader.validate(_:)`).
    public func validate(_ data: Data, fileExtension: String? = nil, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListFormat {
        try options.checkInputSize(data.count)
        if PropertyListFormat.detect(data) == .binary {
            try BinaryPropertyListReader(options: options).validate(data)
            return .binary
        }
        return try read(data, fileExtension: fileExtension, warnings: &warnings).format
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
        if PropertyListFormat.detect(data) == .binary {
            return (try BinaryPropertyListReader(options: options).read(data, at: keyPath), .binary)
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
        case .xml: return try XMLPropertyListReader(options: options).read(data, warnings: &warnings)
        case .openStep: return try OpenStepPropertyListReader(options: options).read(data, warnings: &warnings)
        case .json: return try JSONPropertyListReader(options: options).read(data, warnings: &warnings)
        }
    }
}
