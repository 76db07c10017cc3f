import Foundation

/// Foundation's `NSKeyedUnarchiver` on an archive's bytes, as far as it can tell on Linux without
/// the archive's classes: whether it opens the archive (`$archiver`, `$version`, `$top`,
/// `$objects`), and whether every object reachable from `$top` by keyed references resolves
/// (UIDs in range, `$class` references to class descriptions with a `$classname`).
///
/// Linux has none of an archive's own classes, and its Foundation classes decode only their own
/// keys, so every class name in the archive is mapped to `ParityArchivedObject`, which asks the
/// unarchiver for each of its object's keyed references in turn, as an object's
/// `init(coder:)` would. What the check cannot see: references inside arrays (only a class's
/// own decoder can ask for those), and values a real class would refuse.
enum ArchiveOracle {
    /// CF's answer for `bytes` read as a keyed archive: accepted (with no value) or refused.
    static func unarchive(_ bytes: [UInt8], oracle: CoreFoundationOracle) -> ParityOutcome {
        // The walk follows the property list as CF reads it.
        let plist = bytes.withUnsafeBytes { oracle.read($0) }
        guard case .accepted(_, let value) = plist else { return .refused(message: "not a property list") }
        let unarchiver: NSKeyedUnarchiver
        do {
            unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
        } catch {
            return .refused(message: "\(error)")
        }
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        guard case .dictionary(let top) = value,
              case .array(let objects)? = lookUp("$objects", in: top),
              case .dictionary(let topReferences)? = lookUp("$top", in: top) else {
            return .accepted(format: .binary, value: .null)
        }
        for object in objects {
            guard case .dictionary(let entries) = object,
                  case .string(let name)? = lookUp("$classname", in: entries) else { continue }
            unarchiver.setClass(ParityArchivedObject.self, forClassName: String(decoding: name, as: UTF16.self))
        }
        ArchiveWalk.current = ArchiveWalk(objects: objects)
        defer { ArchiveWalk.current = nil }
        ArchiveWalk.current?.decodeReferences(in: topReferences, with: unarchiver)
        unarchiver.finishDecoding()
        if let error = unarchiver.error { return .refused(message: "\(error)") }
        if let failure = ArchiveWalk.current?.failure { return .refused(message: failure) }
        if ArchiveWalk.current?.arrayElementsNotFollowed == true { return .accepted(format: .binary, value: ArchiveOracle.partial) }
        return .accepted(format: .binary, value: .null)
    }

    /// The value of an acceptance that did not follow every reference (those inside arrays).
    static var partial: ParityValue { .string(Array("objects in arrays not followed".utf16)) }

    /// The value of a string key, as a dictionary lookup finds it.
    static func lookUp(_ key: String, in entries: [ParityValue.Entry]) -> ParityValue? {
        let units = Array(key.utf16)
        return entries.first(where: { $0.key == .string(units) })?.value
    }
}

/// The state of one archive's walk: the objects as CF read them, the UIDs being decoded (the
/// innermost last), and those already asked for (CF decodes a shared object once; a cycle would
/// recurse without end in this stand-in class, where a real class would be handed the object
/// being decoded).
final class ArchiveWalk {
    nonisolated(unsafe) static var current: ArchiveWalk?

    let objects: [ParityValue]
    var stack: [Int] = []
    var asked: Set<UInt64> = []
    /// An error found by the walk itself, where Foundation's code would find it.
    var failure: String?
    /// Whether some array held references in range, which the check cannot follow.
    var arrayElementsNotFollowed = false

    init(objects: [ParityValue]) { self.objects = objects }

    /// Asks `coder` for each reference of `entries`, as a class's decoder would: by key for a
    /// key a class can name (`NSKeyedArchiver` writes a key that starts with `$` with another
    /// `$` before it), in turn for unkeyed coding's `$0`, `$1`, … (when they are all
    /// references), and the elements of an array of references as Foundation's collections
    /// read them (`_decodeArrayOfObjectsForKey`: references up to the first element that is
    /// none, each in range).
    func decodeReferences(in entries: [ParityValue.Entry], with coder: NSCoder) {
        var generic: [Int: ParityValue] = [:]
        for entry in entries {
            guard case .string(let units) = entry.key else { continue }
            let raw = String(decoding: units, as: UTF16.self)
            if raw.hasPrefix("$"), !raw.hasPrefix("$$") {
                if let n = Int(raw.dropFirst()), n >= 0, String(n) == raw.dropFirst() { generic[n] = entry.value }
                continue
            }
            let key = raw.hasPrefix("$$") ? String(raw.dropFirst()) : raw
            switch entry.value {
            case .uid(let uid):
                decode(uid) { _ = coder.decodeObject(forKey: key) }
            case .array(let elements):
                for element in elements {
                    guard case .uid(let uid) = element else { break }
                    // Out of range is the error `_decodeObject` gives; in range, the element is
                    // an object the stand-in cannot ask for through the public API.
                    guard uid < UInt64(objects.count) else {
                        failure = "Invalid object reference \(uid) in \(key) (as _decodeArrayOfObjectsForKey finds it)"
                        return
                    }
                    arrayElementsNotFollowed = true
                }
            default:
                break
            }
            if coder.error != nil || failure != nil { return }
        }
        // Unkeyed coding's values, read in turn by `decodeObject()`, when they are all references.
        let count = generic.count
        guard count > 0, (0..<count).allSatisfy({ if case .uid? = generic[$0] { true } else { false } }) else { return }
        for n in 0..<count {
            guard case .uid(let uid)? = generic[n] else { return }
            decode(uid) { _ = coder.decodeObject() }
            if coder.error != nil || failure != nil { return }
        }
    }

    /// Runs `ask` with `uid` as the object being decoded, once per object (a shared object is
    /// decoded once; a cycle is not followed round).
    private func decode(_ uid: UInt64, _ ask: () -> Void) {
        guard !asked.contains(uid) || uid >= UInt64(objects.count) else { return }
        asked.insert(uid)
        stack.append(Int(truncatingIfNeeded: uid))
        ask()
        stack.removeLast()
    }
}

/// What every class of an archive decodes as in the check: an object that asks for its keyed
/// references and keeps nothing.
final class ParityArchivedObject: NSObject, NSCoding {
    init?(coder: NSCoder) {
        super.init()
        guard let walk = ArchiveWalk.current, let uid = walk.stack.last, uid < walk.objects.count,
              case .dictionary(let entries) = walk.objects[uid] else { return }
        walk.decodeReferences(in: entries, with: coder)
    }

    func encode(with coder: NSCoder) {}
}
