import Foundation

/// Reads OpenStep ("old-style" ASCII) property lists and `.strings` files exactly as Core
/// Foundation's parser (CFOldStylePList.c) reads them.
///
/// `{ key = value; }` dictionaries (`key;` meaning `key = key;`), `( a, b, )` arrays, `<0fbd 12>`
/// data, quoted and unquoted strings (unquoted of ASCII only), `//` and `/* */` comments, and a
/// top level of bare `key = value;` entries (a `.strings` file) or of only whitespace (an empty
/// dictionary). Every value is a string, as in Apple's dialect. A document CF refuses is read
/// again beyond CF's rules when `options.readsBeyondCoreFoundation` is on (the default):
/// GNUstep's typed values (`<*I12>`), its base64 data (`<[AAEC]>`) and unquoted strings past
/// ASCII are then read, with a `.beyondCoreFoundation` warning.
///
/// CF's quirks are CF's answers, and so this reader's (docs/parity.md): an unterminated `/*`
/// ends the text, an escape with no meaning is its character, a strings file ignores what
/// follows its last entry, an element that cannot be read ends an array quietly (`( <0)` is an
/// empty array). Text may be UTF-8, UTF-16 or UTF-32, as CF detects it; octal escapes name
/// NeXTSTEP bytes; a `\U` escape naming a lone UTF-16 surrogate is kept as the units it is
/// (`.invalidUTF16String`), unless `options.preservesInvalidUTF16` is off.
public struct OpenStepPropertyListReader: PropertyListTextReader {
    /// Limits for untrusted input, and whether to keep lone surrogates from `\U` escapes.
    public var options: PropertyListReadOptions

    public init(options: PropertyListReadOptions = .default) {
        self.options = options
    }

    /// Reads one document, adding a warning for each key repeated in a dictionary (resolved as
    /// `options.duplicateKeys` says) to `warnings`.
    public func read(_ data: Data, warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        do throws(PropertyListError) {
            return try read(data, beyondCoreFoundation: false, warnings: &warnings)
        } catch {
            guard options.readsBeyondCoreFoundation(after: error) else { throw error }
            return try read(data, beyondCoreFoundation: true, refusedWith: error, warnings: &warnings)
        }
    }

    /// One reading: by CF's rules, or beyond them. A reading beyond them that fails throws
    /// `refusedWith`, CF's refusal, which says what CF's rules found.
    func read(_ data: Data, beyondCoreFoundation: Bool, refusedWith: PropertyListError? = nil,
              warnings: inout [PropertyListWarning]) throws(PropertyListError) -> PropertyListValue {
        guard beyondCoreFoundation, let refusedWith else {
            return try OpenStepParser.parse(data, options: options, beyondCoreFoundation: beyondCoreFoundation, warnings: &warnings)
        }
        var found: [PropertyListWarning] = []
        guard let value = try? OpenStepParser.parse(data, options: options, beyondCoreFoundation: true, warnings: &found),
              found.contains(where: { $0.code == .beyondCoreFoundation }) else { throw refusedWith }
        warnings += found
        return value
    }
}
