import Foundation

/// A property list read to be changed and written back as it came: in its own format and, for
/// JSON, with its look (indented when it spanned several lines, compact otherwise; a final line
/// break when it had one). What the edit verbs (`set`, `insert`, `replace`, `remove`) do to a
/// file.
///
/// ```swift
/// var warnings: [PropertyListWarning] = []
/// var document = try PropertyListDocument(data: bytes, fileExtension: "json", warnings: &warnings)
/// try document.value.edit(.bool(true), at: PropertyListKeyPath("enabled"), mode: .set)
/// let edited = try document.data(as: document.format)
/// ```
public struct PropertyListDocument: Sendable {
    public var value: PropertyListValue
    /// The format the document was read in.
    public let format: PropertyListFormat
    /// Whether its JSON spanned several lines.
    let jsonIsIndented: Bool
    /// Whether its JSON ended with a line break.
    let jsonEndsWithLineBreak: Bool

    /// Reads `data` in any format (`PropertyListReader.read(_:fileExtension:warnings:)`).
    ///
    /// - Throws: `PropertyListError` as the reader throws it.
    public init(data: Data, fileExtension: String? = nil, options: PropertyListReadOptions = .default,
                warnings: inout [PropertyListWarning]) throws(PropertyListError) {
        (value, format) = try PropertyListReader(options: options).read(data, fileExtension: fileExtension, warnings: &warnings)
        guard format == .json else {
            (jsonIsIndented, jsonEndsWithLineBreak) = (false, false)
            return
        }
        // A line break before the trailing white space means the document spans lines.
        var end = data.endIndex
        while end > data.startIndex, [0x0A, 0x0D, 0x20, 0x09].contains(data[end - 1]) { end -= 1 }
        jsonIsIndented = data[data.startIndex..<end].contains(0x0A)
        jsonEndsWithLineBreak = data.last == 0x0A
    }

    /// The document written as `format`: binary, XML, or JSON in the look the document had
    /// (compact, with no final line break, when it was not JSON), slashes unescaped.
    ///
    /// - Throws: `PropertyListError` when the writer refuses a value, or for OpenStep, which is
    ///   only read.
    public func data(as format: PropertyListFormat) throws(PropertyListError) -> Data {
        switch format {
        case .binary:
            return BinaryPropertyListWriter().write(value)
        case .xml:
            return try XMLPropertyListWriter().write(value)
        case .json:
            var options = JSONWriteOptions()
            options.outputFormatting.insert(.withoutEscapingSlashes)
            if jsonIsIndented { options.outputFormatting.insert(.prettyPrinted) }
            var data = try JSONPropertyListWriter(options: options).write(value)
            if jsonEndsWithLineBreak { data.append(0x0A) }
            return data
        case .openStep:
            throw PropertyListError(.unrepresentable, "OpenStep property lists are read only")
        }
    }
}
