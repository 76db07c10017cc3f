/// The type of a Core Data attribute: `NSAttributeType`, as the compiled model stores it, with
/// the names Xcode's model editor shows and its `contents` file writes.
public enum AttributeType: Sendable, Hashable, CustomStringConvertible {
    case undefined
    case integer16
    case integer32
    case integer64
    case decimal
    case double
    case float
    case string
    case boolean
    case date
    case binaryData
    case uuid
    case uri
    case transformable
    case objectID
    case composite
    /// A code this version of Archivist does not know; kept as read.
    case other(Int)

    /// The known types with their `NSAttributeType` codes.
    static let codes: [(AttributeType, Int)] = [
        (.undefined, 0), (.integer16, 100), (.integer32, 200), (.integer64, 300), (.decimal, 400), (.double, 500),
        (.float, 600), (.string, 700), (.boolean, 800), (.date, 900), (.binaryData, 1000), (.uuid, 1100), (.uri, 1200),
        (.transformable, 1800), (.objectID, 2000), (.composite, 2100),
    ]

    /// The type whose `NSAttributeType` is `code`.
    public init(code: Int) {
        self = Self.codes.first { $0.1 == code }?.0 ?? .other(code)
    }

    /// `NSAttributeType`'s raw value.
    public var code: Int {
        if case .other(let code) = self { return code }
        return Self.codes.first { $0.0 == self }?.1 ?? 0
    }

    /// The name Xcode's model editor shows: `Integer 16`, `Binary Data`, `Transformable`.
    public var xcodeName: String {
        switch self {
        case .binaryData: "Binary Data"
        case .other(let code): "type \(code)"
        default: contentsName
        }
    }

    /// The `attributeType` a `.xcdatamodel/contents` file writes: as `xcodeName`, except
    /// `Binary` for Binary Data.
    public var contentsName: String {
        switch self {
        case .undefined: "Undefined"
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binaryData: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "ObjectID"
        case .composite: "Composite"
        case .other(let code): "type \(code)"
        }
    }

    /// The type a `contents` file names (`Binary Data` is accepted too).
    public init?(contentsName: String) {
        if contentsName == "Binary Data" {
            self = .binaryData
            return
        }
        guard let match = Self.codes.first(where: { $0.0.contentsName == contentsName }) else { return nil }
        self = match.0
    }

    /// The class Core Data hands the app for this type, which the compiled model records as
    /// `NSAttributeValueClassName`; nil for Transformable (its custom class, if any) and the rest.
    public var standardValueClassName: String? {
        switch self {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .string: "NSString"
        case .date: "NSDate"
        case .binaryData: "NSData"
        case .uuid: "NSUUID"
        case .uri: "NSURL"
        default: nil
        }
    }

    public var description: String { xcodeName }
}
