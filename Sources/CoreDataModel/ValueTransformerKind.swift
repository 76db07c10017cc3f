/// What kind of value transformer a Transformable attribute names, which decides who judges
/// the classes its values may hold.
public enum ValueTransformerKind: Sendable, Hashable {
    /// No transformer name: Core Data falls back to `NSKeyedUnarchiveFromData`, the insecure
    /// unarchiver it warns about on every launch since iOS 12.
    case none
    /// `NSKeyedUnarchiveFromData` or `NSUnarchiveFromData` named outright: insecure too.
    case insecure(String)
    /// `NSSecureUnarchiveFromData`: secure unarchiving with its default class list.
    case secureUnarchive
    /// Any other name: a transformer the app registers itself, whose code decides.
    case appDefined(String)

    /// `NSSecureUnarchiveFromDataTransformerName`.
    public static let secureUnarchiveName = "NSSecureUnarchiveFromData"
    /// `NSKeyedUnarchiveFromDataTransformerName`, Core Data's default when none is named.
    public static let keyedUnarchiveName = "NSKeyedUnarchiveFromData"
    /// `NSUnarchiveFromDataTransformerName` (NSArchiver's old format).
    public static let unarchiveName = "NSUnarchiveFromData"

    /// The kind of the transformer named `name` (nil or empty: none).
    public init(name: String?) {
        guard let name, !name.isEmpty else {
            self = .none
            return
        }
        switch name {
        case Self.secureUnarchiveName, "NSSecureUnarchiveFromDataTransformer": self = .secureUnarchive
        case Self.keyedUnarchiveName, Self.unarchiveName: self = .insecure(name)
        default: self = .appDefined(name)
        }
    }

    /// Whether Core Data warns that the attribute unarchives insecurely.
    public var isInsecure: Bool {
        switch self {
        case .none, .insecure: true
        case .secureUnarchive, .appDefined: false
        }
    }

    /// The name the transformer runs under: Core Data's default for `.none`.
    public var effectiveName: String {
        switch self {
        case .none: Self.keyedUnarchiveName
        case .insecure(let name), .appDefined(let name): name
        case .secureUnarchive: Self.secureUnarchiveName
        }
    }
}
