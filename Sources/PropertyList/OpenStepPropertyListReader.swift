import Foundation

/// Reads OpenStep ("old-style" ASCII) property lists and `.strings` files.
///
/// It reads what Apple's CFOldStylePList.c reads: `{ key = value; }` dictionaries (a `;` after
/// every entry, and `key;` meaning `key = key;`), `( a, b, )` arrays, `<0fbd 12>` data, quoted
/// and unquoted strings, `//` and `/* */` comments, and a top level of bare `key = value;`
/// entries (a `.strings` file) or of only whitespace (an empty dictionary). Every value in
/// Apple's dialect is a string. It also reads GNUstep's typed values (`<*I12>`, `<*R1.5>`,
/// `<*BY>`, `<*BN>`, `<*D2020-01-01 12:00:00 +0000>`) and base64 data (`<[AAEC]>`).
///
/// Text may be UTF-8, UTF-16 or UTF-32, with or without a byte-order mark. Octal escapes name
/// NeXTSTEP bytes, as in CF. A `\U` escape naming a lone UTF-16 surrogate becomes U+FFFD, which
/// is what Swift's String makes of CF's result, unless `options.preservesInvalidUTF16` keeps it
/// as `.invalidUTF16String`.
///
/// Where Apple's parser quietly accepts damage, this reader refuses it, so that `lint` can
/// report it: an unterminated `/*` comment, a backslash before a character that has no escape
/// meaning, a NUL character in the text, and anything after the root value. It accepts two
/// extensions found in files that GNUstep and other tools write: non-ASCII letters in unquoted
/// strings, and `\u` as a spelling of `\U`.
public struct OpenStepPropertyListReader: Sendable {
    /// Limits for untrusted input, and whether to keep lone surrogates from `\U` escapes.
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Reads one OpenStep document.
    ///
    /// - Throws: `PropertyListError` with the line and column of the problem and the key path
    ///   of the value being read.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        var ignored: [PropertyListWarning] = []
        return try read(data, warnings: &ignored)
    }

    /// Reads one document, adding a warning for each key repeated in a dictionary (resolved as
    /// `options.duplicateKeys` says) to `warnings`.
    public func read(_ data: Data, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        try OpenStepParser.parse(data, options: options, warnings: &warnings)
    }
}
