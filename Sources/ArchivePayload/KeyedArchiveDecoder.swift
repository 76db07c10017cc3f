import Foundation
import KeyedArchive
import PropertyList

/// Decodes a `Decodable` value straight from NSKeyedArchiver bytes, without any of the archived
/// classes existing: `try KeyedArchiveDecoder().decode(UserDetails.self, from: blob)`.
///
/// The archive's root object is mapped as `PayloadMapper` describes (a UIColor becomes
/// `{red, green, blue, alpha}`, an NSURL its string, a custom class its fields) and decoded with
/// Foundation's `PropertyListDecoder`, so dates and data decode natively and a field that was
/// never encoded decodes as nil.
public struct KeyedArchiveDecoder: Sendable {
    /// When set, the blob is first checked as `NSSecureUnarchiveFromDataTransformer` would, and
    /// refused with `PayloadError.refused` if any object's class is not allowed.
    public var allowList: AllowList?
    public var payloadOptions: PayloadOptions
    public var readOptions: KeyedArchiveReadOptions

    public init(allowList: AllowList? = nil, payloadOptions: PayloadOptions = PayloadOptions(), readOptions: KeyedArchiveReadOptions = .default) {
        self.allowList = allowList
        self.payloadOptions = payloadOptions
        self.readOptions = readOptions
    }

    /// The payload the archive maps to, after the allow-list check.
    public func payload(from data: Data) throws -> PropertyListValue {
        let archive = try KeyedArchive(data: data, options: readOptions)
        if let allowList {
            let report = AllowListChecker(allowList: allowList).check(archive)
            // The classes decide; an NSArchiver typedstream decodes as a keyed archive does.
            guard report.classesAccepted else {
                let refused = report.violationList()
                throw PayloadError(.refused, "refused by the allow-list: \(refused)")
            }
        }
        var options = payloadOptions
        options.target = .propertyList
        return try PayloadMapper(options: options).payload(of: archive)
    }

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let payload = try payload(from: data)
        return try PropertyListDecoder().decode(T.self, from: BinaryPropertyListWriter().write(payload))
    }
}
