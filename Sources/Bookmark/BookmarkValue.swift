import Foundation

/// One record of a bookmark, by its type word (type in the high 24 bits, subtype in the low 8).
public indirect enum BookmarkValue: Sendable, Hashable {
    /// `0x0101`: UTF-8 text.
    case string(String)
    /// `0x0201`: bytes.
    case data(Data)
    /// `0x03nn`: a CFNumber; the subtype is its CFNumberType.
    case number(BookmarkNumber)
    /// `0x0400`: seconds since 2001-01-01 UTC, a big-endian double (the only big-endian field).
    case date(Double)
    /// `0x0500` false, `0x0501` true.
    case bool(Bool)
    /// `0x0601`: the offsets of other records.
    case array([BookmarkValue])
    /// `0x0701`: pairs of offsets of key and value records.
    case dictionary([BookmarkDictionaryEntry])
    /// `0x0801`: 16 bytes.
    case uuid(UUID)
    /// `0x0901`: an absolute URL's text.
    case url(String)
    /// `0x0902`: the offsets of a base URL record and a relative string record.
    case relativeURL(base: BookmarkValue, relative: BookmarkValue)
    /// `0x0A01`.
    case null
    /// A record of a type or subtype this reader does not know, or whose length does not fit
    /// its type (a 3-byte number), kept as written.
    case raw(type: UInt32, bytes: Data)

    /// A URL's text: an absolute URL as written, a relative one resolved against its base as
    /// RFC 3986 does for a file URL's path (`file:///Users/` + `me/x` → `file:///Users/me/x`).
    public var urlString: String? {
        switch self {
        case .url(let text), .string(let text): return text
        case .relativeURL(let base, let relative):
            guard let baseText = base.urlString, let relativeText = relative.urlString else { return nil }
            if relativeText.contains("://") || baseText.isEmpty { return relativeText }
            if relativeText.hasPrefix("/") {
                // The base's scheme and authority, then the relative path.
                if let schemeEnd = baseText.range(of: "://") {
                    let afterScheme = baseText[schemeEnd.upperBound...]
                    let authorityEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
                    return String(baseText[..<authorityEnd]) + relativeText
                }
                return relativeText
            }
            let directory = baseText.hasSuffix("/") ? baseText : String(baseText[...(baseText.lastIndex(of: "/") ?? baseText.startIndex)])
            return directory + relativeText
        default: return nil
        }
    }

    /// The text of a string record.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A number record's integer (a real number's whole value when it has no fraction).
    public var integerValue: Int64? {
        guard case .number(let n) = self else { return nil }
        switch n.value {
        case .integer(let v): return v
        case .real(let v): return v.rounded() == v && abs(v) < 9.2e18 ? Int64(v) : nil
        }
    }
}

/// A key and a value of a dictionary record.
public struct BookmarkDictionaryEntry: Sendable, Hashable {
    public var key: BookmarkValue
    public var value: BookmarkValue

    public init(key: BookmarkValue, value: BookmarkValue) {
        self.key = key
        self.value = value
    }
}

/// A number record: its CFNumberType and its value.
public struct BookmarkNumber: Sendable, Hashable {
    /// The CFNumberType of the record's subtype: 1 SInt8 … 4 SInt64, 5 Float32, 6 Float64,
    /// 7 char … 16 CGFloat.
    public var type: UInt8
    public var value: Value

    public enum Value: Sendable, Hashable {
        case integer(Int64)
        case real(Double)
    }

    public init(type: UInt8, value: Value) {
        self.type = type
        self.value = value
    }
}
