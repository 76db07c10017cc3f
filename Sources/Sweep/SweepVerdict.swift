/// What `NSSecureUnarchiveFromDataTransformer` would say about an archive, under the sweep's
/// allow-list (its default classes plus `--allow`).
public enum SweepVerdict: String, Sendable, Hashable, CaseIterable {
    case accepted
    case refused
}
