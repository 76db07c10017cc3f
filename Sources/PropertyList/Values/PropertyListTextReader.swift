import Foundation

/// What the readers of the text formats (XML, OpenStep, JSON) have in common: limits for
/// untrusted input, and reading one document with the warnings its reading raised (a repeated
/// key, something read beyond Core Foundation's rules) or without them.
public protocol PropertyListTextReader: Sendable {
    var options: PropertyListReadOptions { get set }

    /// Reads one document, adding a warning for each key repeated in a dictionary (resolved as
    /// `options.duplicateKeys` says), and each reading beyond Core Foundation's rules, to
    /// `warnings`.
    ///
    /// - Throws: `PropertyListError` with the line and column of the problem and the key path
    ///   of the value being read.
    func read(_ data: Data, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue
}

extension PropertyListTextReader {
    /// Reads one document; its warnings are dropped.
    ///
    /// - Throws: `PropertyListError` with the line and column of the problem and the key path
    ///   of the value being read.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        var ignored: [PropertyListWarning] = []
        return try read(data, warnings: &ignored)
    }
}
