/// The Swift that `SwiftCodeGenerator` writes, as a small tree: declarations are built from a
/// `PayloadShape` by `SwiftDeclarationBuilder` and turned into text only by `SwiftSourceRenderer`.

/// A type as written where a property or case uses it.
indirect enum SwiftTypeReference: Sendable, Hashable {
    case named(String)
    case array(SwiftTypeReference)
    case dictionary(SwiftTypeReference)
    case optional(SwiftTypeReference)
}

/// A stored property of a struct, and the payload key it decodes from.
struct SwiftProperty: Sendable, Hashable {
    var name: String
    var key: String
    var type: SwiftTypeReference
    /// A remark on the same line (`only ever null: the type is a guess`).
    var remark: String?
}

/// `struct Name: Codable, Hashable, Sendable { … }` with its nested types.
struct SwiftStruct: Sendable, Hashable {
    var name: String
    var documentation: [String] = []
    var properties: [SwiftProperty] = []
    var nested: [SwiftDeclaration] = []

    /// Whether some key differs from its property's name, so `CodingKeys` must be written out.
    var needsCodingKeys: Bool { properties.contains { $0.name != $0.key } }
}

/// An enum that decodes whichever of its cases' types the value is, trying them in order.
struct SwiftUnion: Sendable, Hashable {
    struct Case: Sendable, Hashable {
        var name: String
        var type: SwiftTypeReference
    }

    var name: String
    var documentation: [String] = []
    var cases: [Case] = []
    var nested: [SwiftDeclaration] = []
}

/// `typealias Name = Type`.
struct SwiftTypeAlias: Sendable, Hashable {
    var name: String
    var documentation: [String] = []
    var type: SwiftTypeReference
}

indirect enum SwiftDeclaration: Sendable, Hashable {
    case structure(SwiftStruct)
    case union(SwiftUnion)
    case alias(SwiftTypeAlias)
}

/// The `NSSecureUnarchiveFromDataTransformer` subclass that reads the old archives.
struct SwiftTransformer: Sendable, Hashable {
    var className: String
    /// The name it is registered under.
    var registeredName: String
    /// Swift type names (`UIColor`, `SerializableColor`), added to `super.allowedTopLevelClasses`.
    var allowedClasses: [String]
    /// Classes known only by their runtime name (a mangled generic class), looked up with
    /// `NSClassFromString`.
    var runtimeNamedClasses: [String] = []
    /// Modules the classes come from, imported when they can be (`UIKit`, `AppKit`).
    var frameworks: [String]
    var documentation: [String]
}

/// A whole generated file.
struct SwiftFile: Sendable, Hashable {
    var header: [String] = []
    var declarations: [SwiftDeclaration] = []
    var transformer: SwiftTransformer?
}
