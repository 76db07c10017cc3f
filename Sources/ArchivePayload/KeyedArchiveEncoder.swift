import Foundation
import KeyedArchive
import PropertyList

/// Encodes an `Encodable` value as an NSKeyedArchiver blob, with the class names you choose for
/// its objects, so that an app can read it with `NSKeyedUnarchiver`.
///
/// The value is encoded with `PropertyListEncoder` and archived as `PayloadArchiver` describes:
/// `KeyedArchiveEncoder(classNames: [".": "UIColor"]).encode(color)` writes a UIColor. A nil in
/// a collection (`[1, nil]`, `["k": nil]`) becomes NSNull, as `NSKeyedArchiver` writes it; an
/// optional property that is nil is left out, as Codable leaves it out.
public struct KeyedArchiveEncoder: Sendable {
    /// Class name by payload path (`.` is the root).
    public var classNames: [String: String]
    /// `.binary`, as NSKeyedArchiver writes, or `.xml`.
    public var outputFormat: PropertyListFormat

    public init(classNames: [String: String] = [:], outputFormat: PropertyListFormat = .binary) {
        self.classNames = classNames
        self.outputFormat = outputFormat
    }

    /// The archive as a typed tree, before it is written.
    public func archive<T: Encodable>(_ value: T) throws -> KeyedArchive {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let payload = try PropertyListReader().read(try encoder.encode(value)).value
        // PropertyListEncoder spells nil "$null".
        return try PayloadArchiver(classes: classNames, nullMarker: PayloadArchiver.nullMarker(for: .binary)).archive(payload)
    }

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        try KeyedArchiveWriter().write(archive(value), format: outputFormat)
    }
}
