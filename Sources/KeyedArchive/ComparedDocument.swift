import PropertyList

/// One side of a comparison (`archivist diff`): a property list, maybe a keyed archive; or an
/// archive read from an NSArchiver typedstream, which is always compared as an archive.
public enum ComparedDocument: Sendable {
    case propertyList(PropertyListValue)
    case archive(KeyedArchive)

    /// The document as a plain property list: a typedstream's as the keyed archive of its
    /// objects.
    public var propertyList: PropertyListValue {
        switch self {
        case .propertyList(let value): value
        case .archive(let archive): KeyedArchiveWriter().plist(for: archive)
        }
    }
}

extension KeyedArchiveDiff {
    /// A side that claims to be a keyed archive and does not read as one.
    public struct SideFailure: Error, Sendable {
        /// Whether it is the old side (else the new).
        public var isOld: Bool
        public var error: KeyedArchiveError
    }

    /// The report `archivist diff` prints: `old` and `new` compared as keyed archives when both
    /// are (a typedstream always is), by structure and meaning; else as plain property lists,
    /// by key path. With `plainPropertyLists`, archives too are compared as the property lists
    /// they are (`$objects` by index).
    ///
    /// - Throws: `SideFailure` when a property list that claims to be a keyed archive does not
    ///   read as one (the old side is read first).
    public func report(from old: ComparedDocument, to new: ComparedDocument, plainPropertyLists: Bool = false,
                       readOptions: KeyedArchiveReadOptions = .default) throws(SideFailure) -> PropertyListDiffReport {
        func archive(_ document: ComparedDocument, isOld: Bool) throws(SideFailure) -> KeyedArchive? {
            switch document {
            case .archive(let archive): return plainPropertyLists ? nil : archive
            case .propertyList(let value):
                guard !plainPropertyLists, KeyedArchive.isKeyedArchive(value) else { return nil }
                do {
                    return try KeyedArchive(plist: value, options: readOptions)
                } catch {
                    throw SideFailure(isOld: isOld, error: error)
                }
            }
        }
        if let x = try archive(old, isOld: true), let y = try archive(new, isOld: false) {
            return PropertyListDiffReport(kind: "keyedArchive", differences: differences(from: x, to: y))
        }
        return PropertyListDiffReport(kind: "propertyList",
                                      differences: PropertyListDiff(arraysAsSets: arraysAsSets).differences(from: old.propertyList, to: new.propertyList))
    }
}
