/// What a text reader makes of a key written twice in one dictionary.
///
/// Apple's readers keep the last value: CF's XML and OpenStep parsers and JSONSerialization all
/// set each key as they read it, so a later entry replaces an earlier one (swift-foundation's
/// JSONDecoder is the exception: it keeps the first). Python's plistlib and JSON module keep
/// the last too. Either way the file means two things to two tools, so every reader also
/// reports each repeated key as a `PropertyListWarning`.
public enum DuplicateKeyPolicy: String, Sendable, Hashable, CaseIterable {
    /// One entry per key, in the place of its first appearance, with its last value: what
    /// PropertyListSerialization and JSONSerialization read.
    case keepLast
    /// Every entry as written, duplicates included (a forensic view of the file).
    case keepAll
}
