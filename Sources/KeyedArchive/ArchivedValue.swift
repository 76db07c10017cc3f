import Foundation
import PropertyList

/// A value as an archived object's field holds it: a reference to another object, or a plist
/// value stored inline.
///
/// References stay references, so an object used twice is one node, and a cycle is simply a
/// reference back to an ancestor.
public enum ArchivedValue: Sendable, Hashable {
    /// UID 0, `$null`: a nil object.
    case null
    /// A reference to `KeyedArchive.objects[uid]`.
    case object(uid: Int)
    /// An inline plist value: an integer, real, bool or (rarely) a string, data or date.
    case inline(PropertyListValue)
    /// An inline array or dictionary whose UIDs have become references, as `NS.keys` holds them.
    case array([ArchivedValue])

    /// The referenced object's UID, if this is a reference.
    public var uid: Int? {
        if case .object(let uid) = self { return uid }
        return nil
    }
}
