/// What a migration still has to do with a value, told from the value alone without converting
/// it (`migrate --status`).
public enum ValueDisposition: String, Sendable, Hashable, CaseIterable {
    case null
    /// In the target format already: nothing to do.
    case done
    /// An archive (keyed, or an NSArchiver typedstream): to convert.
    case toConvert
    /// Neither: a migration reports it and leaves it (damaged, not an archive, an image…).
    case notConvertible
}

extension ValueConverter {
    /// What becomes of `stored`, by the rules of `convert(_:)`, without converting it.
    public func disposition(of stored: StoredValue) -> ValueDisposition {
        if options.target == .archive {
            // Back to archives: payloads are to archive; archives are to rename, if any rename
            // was asked for.
            switch stored.kind {
            case .null: return .null
            case .keyedArchiveBinary, .keyedArchiveXML: return options.classRenames.isEmpty ? .done : .toConvert
            case .typedStream, .json, .propertyList: return .toConvert
            case .other, .text: return stored.payload.map(Self.isJSONFragment) == true ? .toConvert : .notConvertible
            case .image, .number, .externalReference, .unreadable: return .notConvertible
            }
        }
        switch stored.kind {
        case .null: return .null
        case .json where options.target == .json: return .done
        case .propertyList where options.target != .json: return .done
        case .keyedArchiveBinary, .keyedArchiveXML, .typedStream: return .toConvert
        case .other where options.target == .json && stored.payload.map(Self.isJSONFragment) == true,
             .text where options.target == .json && stored.payload.map(Self.isJSONFragment) == true:
            return .done
        case .json, .propertyList, .image, .other, .text, .number, .externalReference, .unreadable:
            return .notConvertible
        }
    }
}
