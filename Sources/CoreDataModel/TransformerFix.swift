import ArchivePayload
import KeyedArchive

/// The value transformer an attribute needs: its registered name, its exact
/// `allowedTopLevelClasses`, and the Swift to paste into the app.
///
/// Every transformer Archivist writes (here, in `check` and `scan`, and in `codegen`) follows one
/// rule, `addedClasses(customClass:given:needed:beyond:)`: it subclasses
/// `NSSecureUnarchiveFromDataTransformer` and lists `super.allowedTopLevelClasses` plus only the
/// classes that default list refuses.
public struct TransformerFix: Sendable, Hashable {
    /// The name to set as the attribute's Transformer in the model, and to register.
    public var transformerName: String
    /// The `NSSecureUnarchiveFromDataTransformer` subclass to write; nil when the secure
    /// transformer's defaults already accept everything (`transformerName` is then
    /// `NSSecureUnarchiveFromData`).
    public var className: String?
    /// The classes the subclass adds to `super.allowedTopLevelClasses` (readable names:
    /// `Palette.SerializableColor`).
    public var addedClasses: [String]
    /// The Swift: the subclass and its registration, or the one-line model change.
    public var swiftSource: String
    /// The `archivist migrate` command the stored values need before the model may name the
    /// new transformer: set when they are NSArchiver typedstreams (`NSUnarchiveFromData`),
    /// which no secure unarchiver reads.
    public var migrationCommand: String?

    /// Notes that the attribute's values are typedstreams: they must become keyed archives
    /// first, or the new transformer reads every old row as nil.
    mutating func requiresMigration(entity: String, attribute: String) {
        let command = "archivist migrate STORE --attribute \(entity).\(attribute) --to archive"
        migrationCommand = command
        swiftSource = """
            // \(entity).\(attribute) holds NSArchiver typedstreams (NSUnarchiveFromData), which no secure unarchiver reads.
            // First convert them to keyed archives of the same objects, in place: \(command)
            // Then:
            """ + "\n" + swiftSource
    }

    /// The fix that moves an attribute to `NSSecureUnarchiveFromDataTransformer`, adding
    /// `adding` to its defaults (none: the transformer itself suffices).
    init(entity: String, attribute: AttributeDescription, adding: [String]) {
        addedClasses = adding
        guard !adding.isEmpty else {
            transformerName = ValueTransformerKind.secureUnarchiveName
            className = nil
            swiftSource = """
                // \(entity).\(attribute.name): set Transformer to NSSecureUnarchiveFromDataTransformer in the model editor
                // (its default classes accept every value the store holds); no subclass is needed.
                """
            return
        }
        let base = Self.swiftTypeName(attribute.customClassName ?? adding[0])
        let name = base + "Transformer"
        transformerName = name
        className = name
        swiftSource = Self.source(entity: entity, attribute: attribute.name, className: name, adding: adding)
    }

    /// The fix for an app transformer whose classes were given: the same name, rewritten as an
    /// `NSSecureUnarchiveFromDataTransformer` subclass that adds `adding` to the defaults.
    init(entity: String, attribute: AttributeDescription, existingTransformer: String, adding: [String]) {
        addedClasses = adding
        transformerName = existingTransformer
        let name = Self.swiftTypeName(existingTransformer)
        className = name
        swiftSource = Self.source(entity: entity, attribute: attribute.name, className: name, adding: adding, registeredName: existingTransformer)
    }

    /// The classes a transformer lists after `super.allowedTopLevelClasses`: the model's custom
    /// class, the classes given for the app's own transformer (`--transformer`), then the
    /// classes the rows need, each only when `allowList` (the secure defaults) refuses it, and
    /// one entry per Swift type (`Palette.SerializableColor` and its mangled name are one).
    ///
    /// One rule for the audit and `codegen`: the defaults are Foundation's value classes, safe to
    /// allow, and a store is one device's sample, so a list of only the classes seen would turn
    /// another device's old value (an NSArray where this one has none) into nil.
    public static func addedClasses(customClass: String?, given: [String] = [], needed: [String],
                                    beyond allowList: AllowList = .transformerDefault) -> [String] {
        var out: [String] = []
        for name in [customClass].compactMap({ $0 }) + given + needed
        where !out.contains(where: { swiftTypeName($0) == swiftTypeName(name) }) && !accepts(allowList, name) {
            out.append(name)
        }
        return out
    }

    /// Whether `list` accepts an object of class `name`, judged by the checker itself.
    static func accepts(_ list: AllowList, _ name: String) -> Bool {
        var builder = KeyedArchiveBuilder()
        let root = builder.object(name, fields: [])
        return AllowListChecker(allowList: list).check(builder.archive(root: root)).isAccepted
    }

    /// `super.allowedTopLevelClasses + [UIColor.self]`.
    static func list(adding: [String]) -> String {
        adding.isEmpty ? "super.allowedTopLevelClasses"
            : "super.allowedTopLevelClasses + [\(adding.map { swiftTypeName($0) + ".self" }.joined(separator: ", "))]"
    }

    static func source(entity: String, attribute: String, className: String, adding: [String], registeredName: String? = nil) -> String {
        """
        /// Reads \(entity).\(attribute) with secure unarchiving.
        @objc(\(className))
        final class \(className): NSSecureUnarchiveFromDataTransformer {
            static let name = NSValueTransformerName(rawValue: "\(registeredName ?? className)")

            override class var allowedTopLevelClasses: [AnyClass] {
                \(list(adding: adding))
            }
        }

        // Before the persistent container loads its stores:
        // ValueTransformer.setValueTransformer(\(className)(), forName: \(className).name)
        // In the model editor, \(entity).\(attribute): Transformer \(registeredName ?? className)
        """
    }

    /// `UIColor`; a Swift class by its unqualified name, since the app's module prefixes it
    /// (`Palette.SerializableColor` and `_TtC7Palette16SerializableColor` are `SerializableColor`).
    public static func swiftTypeName(_ className: String) -> String {
        let readable = SwiftClassName.demangle(className) ?? className
        return readable.split(separator: ".").last.map(String.init) ?? readable
    }
}
