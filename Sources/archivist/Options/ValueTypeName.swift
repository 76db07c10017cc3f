import ArgumentParser
import PropertyList

/// A type name for `--expect` and `type`: plutil's eight, and the three values plutil has no
/// name for (sets, keyed-archive UIDs and the binary null marker).
enum ValueTypeName: String, ExpressibleByArgument, CaseIterable {
    case bool, integer, float, string, date, data, array, dictionary, set, uid, null

    init(of value: PropertyListValue) {
        self = ValueTypeName(rawValue: value.plutilTypeName ?? value.typeName) ?? .null
    }
}

extension CommandFailure {
    /// The failure for a value whose type is not the one `--expect` asked for.
    static func unexpectedType(_ actual: ValueTypeName, expected: ValueTypeName, at path: String, file: String) -> CommandFailure {
        CommandFailure(file: file, message: "the value at \(path) is \(actual.withArticle), not \(expected.withArticle) (--expect \(expected.rawValue))")
    }
}

extension ValueTypeName {
    var withArticle: String {
        switch self {
        case .data: "data"
        case .array, .integer: "an " + rawValue
        case .uid: "a UID"
        default: "a " + rawValue
        }
    }
}
