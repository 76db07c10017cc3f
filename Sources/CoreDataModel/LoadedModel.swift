/// A model with where it came from, and which version was chosen.
public struct LoadedModel: Sendable, Hashable {
    public var model: ManagedObjectModel
    public var source: ModelSource
    /// How the version was chosen, for folders that hold several.
    public var versionMatch: VersionMatch?
    /// Every version the folder holds, by name.
    public var versions: [String]

    public init(model: ManagedObjectModel, source: ModelSource, versionMatch: VersionMatch? = nil, versions: [String] = []) {
        self.model = model
        self.source = source
        self.versionMatch = versionMatch
        self.versions = versions
    }
}

/// Where a model was read from.
public enum ModelSource: Sendable, Hashable, CustomStringConvertible {
    /// A store's own `Z_MODELCACHE`.
    case modelCache(store: String)
    /// A compiled `.mom`, or a version of a `.momd`.
    case compiledModel(path: String, version: String?)
    /// A source `.xcdatamodel`, or a version of an `.xcdatamodeld`.
    case sourceModel(path: String, version: String?)

    public var path: String {
        switch self {
        case .modelCache(let path), .compiledModel(let path, _), .sourceModel(let path, _): path
        }
    }

    public var version: String? {
        switch self {
        case .modelCache: nil
        case .compiledModel(_, let version), .sourceModel(_, let version): version
        }
    }

    public var description: String {
        switch self {
        case .modelCache: "the store's Z_MODELCACHE"
        case .compiledModel(_, let version): version.map { "compiled model, version \"\($0)\"" } ?? "compiled model"
        case .sourceModel(_, let version): version.map { "source model, version \"\($0)\"" } ?? "source model"
        }
    }
}

/// How the version of a multi-version folder was chosen.
public enum VersionMatch: String, Sendable, Hashable {
    /// Its entity hashes equal the store's `NSStoreModelVersionHashes`.
    case matchesStore
    /// The folder names it current (`VersionInfo.plist` or `.xccurrentversion`).
    case current
    /// The only version, or the last by name when none is named current.
    case onlyOrLast
}
