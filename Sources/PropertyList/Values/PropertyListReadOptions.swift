import Foundation

/// Limits and choices for reading untrusted property lists.
///
/// Every limit has a default that real files never reach and hostile files cannot get past.
public struct PropertyListReadOptions: Sendable, Hashable {
    /// The deepest nesting of arrays, dictionaries and sets. CF uses 512.
    public var maximumDepth: Int = 512
    /// The most objects a document may hold (binary objects, or XML/OpenStep/JSON values).
    public var maximumObjectCount: Int = 50_000_000
    /// The largest input accepted, in bytes. Default: 2 GiB.
    public var maximumInputSize: Int = 1 << 31
    /// The most bytes of string and data content the decoded tree may hold. Default: 4 GiB.
    /// Bounds what a small file full of shared references can make us build.
    public var maximumDecodedSize: Int = 1 << 32
    /// How far past its own size a binary file's shared references may expand: beyond a million
    /// values and 64 MiB of content, 64 values and 1 KiB of content per input byte. Lower than
    /// the two limits above for small files, so that a few hundred bytes cannot make a printer
    /// or converter write gigabytes. `.unlimited` leaves only those two.
    public var expansionLimit: PropertyListExpansionLimit = .default
    /// Keep strings with lone surrogates (a binary UTF-16 string, an OpenStep `\U` escape, a JSON
    /// `\u` escape) as `.invalidUTF16String`, the code units Core Foundation keeps. On by
    /// default, as CF reads them; off, such a string is refused (plistlib's choice).
    public var preservesInvalidUTF16: Bool = true
    /// What the readers make of a key written twice in one dictionary (or a member twice in a
    /// binary set): by default what Core Foundation keeps (see `DuplicateKeyPolicy`). In the
    /// text formats each is also reported as a `PropertyListWarning` by the
    /// `read(_:warnings:)` calls.
    public var duplicateKeys: DuplicateKeyPolicy = .coreFoundation
    /// Also read, where Core Foundation refuses a whole document, what other writers produce:
    /// GNUstep's typed values (`<*I12>`, `<*D…>`, `<[base64]>`) and non-ASCII unquoted strings in
    /// OpenStep text, XML in UTF-16 or UTF-32 without a byte-order mark, comments inside XML
    /// strings; and read a tag whose quoted attribute holds a `>` as XML does (CF ends the tag
    /// there). Each such reading adds a `.beyondCoreFoundation` warning, so a caller always knows
    /// when Apple's parser would answer otherwise. On by default; off, the readers answer exactly
    /// as CF does (docs/parity.md).
    public var readsBeyondCoreFoundation: Bool = true
    /// Refuse what Core Foundation reads leniently but no writer should write: dates that are
    /// not finite or fall outside years 0 to 9999, bytes above 0x7F in a binary ASCII string, a
    /// file that starts `bplist` but is no binary property list (CF then reads it as OpenStep
    /// text), an unterminated `/*` comment or an unknown escape in OpenStep text, XML that is not
    /// well-formed (a malformed DOCTYPE, content after the root). `lint` sets it; off by default,
    /// so that the readers read what Apple reads.
    public var requiresWellFormedInput: Bool = false

    public init() {}

    public static let `default` = PropertyListReadOptions()

    /// Core Foundation's answers exactly: nothing read beyond CF (`readsBeyondCoreFoundation`
    /// off), nothing refused that it reads.
    public static let coreFoundation: PropertyListReadOptions = {
        var options = PropertyListReadOptions()
        options.readsBeyondCoreFoundation = false
        return options
    }()
}

extension PropertyListReadOptions {
    /// Whether a document CF's rules refused with `refusal` is read again beyond them: only
    /// with `readsBeyondCoreFoundation`, and never after a limit, which a second reading would
    /// only meet again.
    package func readsBeyondCoreFoundation(after refusal: PropertyListError) -> Bool {
        readsBeyondCoreFoundation && refusal.code != .limitExceeded
    }

    /// `readsBeyondCoreFoundation(after:)` for XML: also only where the lexer took the bytes
    /// for XML, or they are XML in UTF-16 or UTF-32 without a mark, which it cannot take.
    package func readsXMLBeyondCoreFoundation(after refusal: PropertyListError, data: Data) -> Bool {
        readsBeyondCoreFoundation(after: refusal) && (refusal != XMLPropertyListLexer.notXML || UnmarkedWideEncoding(data) != nil)
    }

    /// Refuses an input over `maximumInputSize` before anything reads it.
    package func checkInputSize(_ count: Int) throws(PropertyListError) {
        guard count <= maximumInputSize else {
            throw PropertyListError(.limitExceeded, "input is \(count) bytes, over the limit of \(maximumInputSize)")
        }
    }
}
