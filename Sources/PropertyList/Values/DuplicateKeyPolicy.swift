/// What a reader makes of a key written twice in one dictionary.
///
/// Core Foundation keeps the last value in XML and OpenStep (its parsers set each key as they
/// read it, so a later entry replaces an earlier one; JSONSerialization does the same) and the
/// first in a binary plist (a binary dictionary is built from all its entries at once, and the
/// first of equal keys stays). Keys are equal as CF compares them (`CoreFoundationKeyEquality`).
/// Python's plistlib and JSON module keep the last. Either way the file means two things to two
/// tools, so the text readers also report each repeated key as a `PropertyListWarning`.
public enum DuplicateKeyPolicy: String, Sendable, Hashable, CaseIterable {
    /// One entry per key, in the place of its first appearance, with the value Core Foundation
    /// keeps: the last in XML, OpenStep and JSON, the first in a binary plist. The default.
    case coreFoundation
    /// One entry per key, in the place of its first appearance, with its last value, in every
    /// format.
    case keepLast
    /// Every entry as written, duplicates included (a forensic view of the file).
    case keepAll
}
