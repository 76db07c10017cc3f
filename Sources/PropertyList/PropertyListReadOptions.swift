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
    /// Keep UTF-16 strings with lone surrogates as `.invalidUTF16String` instead of refusing them.
    /// Off by default, as in CF and plistlib; forensic users turn it on to see the raw code units.
    public var preservesInvalidUTF16: Bool = false
    /// What the XML, OpenStep and JSON readers make of a key written twice in one dictionary:
    /// by default the last value, as Apple's readers do. Either way, each is reported as a
    /// `PropertyListWarning` by the `read(_:warnings:)` calls.
    public var duplicateKeys: DuplicateKeyPolicy = .keepLast

    public init() {}

    public static let `default` = PropertyListReadOptions()
}

extension PropertyListReadOptions {
    /// Refuses an input over `maximumInputSize` before anything reads it.
    func checkInputSize(_ count: Int) throws(PropertyListError) {
        guard count <= maximumInputSize else {
            throw PropertyListError(.limitExceeded, "input is \(count) bytes, over the limit of \(maximumInputSize)")
        }
    }
}
