import Foundation
import Testing
import ArchivePayload
import KeyedArchive
import PropertyList

/// Foundation on Linux (swift-corelibs-foundation) as the client that reads what we write, in
/// this process.
///
/// Its `NSKeyedUnarchiver` ends the process (`fatalError`) on a class that exists but is not
/// allowed, on a class that does not adopt NSSecureCoding under secure coding, and on some
/// corrupt input; it recurses forever on a cycle and corrupts its heap on `$null` among a
/// dictionary's keys or values. So nothing reaches it before `crashRisk(_:allowed:)` (our own
/// checker and a walk of the graph) has said it is safe.
enum FoundationClient {
    /// `NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses`.
    static let transformerDefaultClasses: [AnyClass] = [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self,
                                                        NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]

    /// Why handing `archive` to Foundation's unarchiver with `allowed` could end this process,
    /// or nil when it cannot.
    static func crashRisk(_ archive: KeyedArchive, allowed: AllowList) -> String? {
        // A class Foundation has but does not allow is a fatalError: our checker must accept
        // every object first, by the real class hierarchy.
        let report = AllowListChecker(allowList: allowed).check(archive)
        if !report.isAccepted {
            return "our checker refuses \(report.violations.map(\.className).joined(separator: ", ")), which Linux Foundation's unarchiver would abort on"
        }
        if let cycle = cycle(in: archive) { return cycle }
        if let null = nullInDictionary(archive) { return null }
        return nil
    }

    /// A reference back to an object being decoded, which Linux Foundation follows forever.
    static func cycle(in archive: KeyedArchive) -> String? {
        // Iterative depth-first search, colouring objects: 1 on the way down, 2 when done.
        var state = [UInt8](repeating: 0, count: archive.objects.count)
        func references(_ value: ArchivedValue, into out: inout [Int]) {
            switch value {
            case .object(let uid): out.append(uid)
            case .array(let elements): for e in elements { references(e, into: &out) }
            case .null, .inline: break
            }
        }
        for entry in archive.top {
            var roots: [Int] = []
            references(entry.value, into: &roots)
            for root in roots where root < state.count && state[root] == 0 {
                var stack: [(uid: Int, children: [Int], next: Int)] = []
                func push(_ uid: Int) {
                    state[uid] = 1
                    var children: [Int] = []
                    for field in archive.objects[uid]?.fields ?? [] { references(field.value, into: &children) }
                    stack.append((uid, children, 0))
                }
                push(root)
                while !stack.isEmpty {
                    let top = stack.count - 1
                    if stack[top].next == stack[top].children.count {
                        state[stack[top].uid] = 2
                        stack.removeLast()
                        continue
                    }
                    let child = stack[top].children[stack[top].next]
                    stack[top].next += 1
                    guard child < state.count else { continue }
                    if state[child] == 1 { return "a cycle through object #\(child), which Linux Foundation's unarchiver follows forever" }
                    if state[child] == 0 { push(child) }
                }
            }
        }
        return nil
    }

    /// `$null` among an NSDictionary's keys or values: Linux Foundation pairs the keys and values
    /// it decoded, skipping nils, and corrupts its heap when the counts differ.
    static func nullInDictionary(_ archive: KeyedArchive) -> String? {
        func holdsNull(_ value: ArchivedValue?) -> Bool {
            if case .array(let elements)? = value { return elements.contains(.null) }
            return false
        }
        for object in archive.decodedObjects where object.archivedClass != nil {
            // By the fields, not the content: a dictionary whose fields are not as Apple writes
            // them is read as a plain object, and Foundation would still decode it as one.
            guard object[field: "NS.keys"] != nil else { continue }
            if holdsNull(object[field: "NS.keys"]) || holdsNull(object[field: "NS.objects"]) {
                return "$null in the dictionary #\(object.uid), on which Linux Foundation's unarchiver corrupts its heap"
            }
        }
        return nil
    }

    /// Every `$top` entry of `data` as Foundation decodes it, by key; nil objects are left out. Named keys are decoded with
    /// secure coding and `classes`; unkeyed ones (`$0`, `$1`…), which only `decodeObject()` reads
    /// in order, without it (`crashRisk` has already checked every class against `classes`).
    static func decodeTop(_ data: Data, keys: [String], classes: [AnyClass]) throws -> [String: Any] {
        var out: [String: Any] = [:]
        let named = keys.filter { !isUnkeyed($0) }
        if !named.isEmpty {
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = true
            unarchiver.decodingFailurePolicy = .setErrorAndReturn
            for key in named {
                let value = unarchiver.decodeObject(of: classes, forKey: key)
                if let error = unarchiver.error { throw error }
                if let value { out[key] = value }
            }
        }
        let unkeyed = keys.filter(isUnkeyed).sorted { Int($0.dropFirst()) ?? 0 < Int($1.dropFirst()) ?? 0 }
        if !unkeyed.isEmpty {
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = false
            unarchiver.decodingFailurePolicy = .setErrorAndReturn
            for key in unkeyed {
                let value = unarchiver.decodeObject()
                if let error = unarchiver.error { throw error }
                if let value { out[key] = value }
            }
        }
        return out
    }

    static func isUnkeyed(_ key: String) -> Bool {
        key.hasPrefix("$") && key.count > 1 && key.dropFirst().allSatisfy(\.isNumber)
    }

    /// Whether Foundation's two objects hold the same values: `isEqual`, or for classes that
    /// compare by identity (formatters, text-checking results), Foundation's own archives of
    /// them hold the same graph.
    static func sameValue(_ a: Any, _ b: Any) -> Bool {
        if let x = a as? NSObject, x.isEqual(b) { return true }
        guard type(of: a) == type(of: b), !(a is NSArray), !(a is NSDictionary), !(a is NSSet), !(a is NSOrderedSet) else { return false }
        guard let x = try? NSKeyedArchiver.archivedData(withRootObject: a, requiringSecureCoding: true),
              let y = try? NSKeyedArchiver.archivedData(withRootObject: b, requiringSecureCoding: true),
              let ax = try? KeyedArchive(data: x), let ay = try? KeyedArchive(data: y) else { return false }
        return ax.isEquivalent(to: ay)
    }

    /// The first difference between what Foundation decoded and the payload it was archived
    /// from, or nil. `nullMarker` is the string that stood for null in the payload.
    static func mismatch(_ object: Any?, _ payload: PropertyListValue, nullMarker: String?, path: String = "") -> String? {
        let here = path.isEmpty ? "the root" : path
        func differ() -> String { "at \(here): Foundation read \(describe(object)), the payload holds \(payload)" }
        if case .string(let s) = payload, s == nullMarker { return object is NSNull ? nil : differ() }
        switch payload {
        case .null:
            return object is NSNull ? nil : differ()
        case .string(let s):
            return (object as? String) == s ? nil : differ()
        case .bool(let b):
            guard let n = object as? NSNumber, String(cString: n.objCType) == "c", n.boolValue == b else { return differ() }
            return nil
        case .integer(let i):
            guard let n = object as? NSNumber, String(cString: n.objCType) != "c" else { return differ() }
            if let v = i.int64Value { return n.int64Value == v && n.stringValue == String(v) ? nil : differ() }
            return n.stringValue == i.description ? nil : differ()
        case .real(let r):
            guard let n = object as? NSNumber, String(cString: n.objCType) != "c", n.doubleValue == r || (r.isNaN && n.doubleValue.isNaN) else { return differ() }
            return nil
        case .date(let d):
            return (object as? Date) == d ? nil : differ()
        case .data(let d):
            return (object as? Data) == d ? nil : differ()
        case .array(let elements), .set(let elements):
            guard let array = object as? NSArray, array.count == elements.count else { return differ() }
            for (i, e) in elements.enumerated() {
                if let problem = mismatch(array[i], e, nullMarker: nullMarker, path: "\(path)[\(i)]") { return problem }
            }
            return nil
        case .dictionary(let d):
            guard let dictionary = object as? NSDictionary, dictionary.count == d.count else { return differ() }
            for (key, value) in d {
                guard let k = foundationKey(key), let found = dictionary[k] else { return "at \(here): Foundation's dictionary lacks the key \(key)" }
                if let problem = mismatch(found, value, nullMarker: nullMarker, path: "\(path).\(key.stringValue ?? "\(key)")") { return problem }
            }
            return nil
        case .uid, .invalidUTF16String:
            return "at \(here): the payload holds \(payload.typeName), which has no archived form"
        }
    }

    static func foundationKey(_ key: PropertyListValue) -> AnyHashable? {
        switch key {
        case .string(let s): return s as NSString
        case .integer(let i): return i.int64Value.map { NSNumber(value: $0) }
        case .real(let r): return NSNumber(value: r)
        case .null: return NSNull()
        default: return nil
        }
    }

    static func describe(_ object: Any?) -> String {
        guard let object else { return "nil" }
        let text = "\(object)"
        return "\(type(of: object)) \(text.count > 200 ? String(text.prefix(200)) + "…" : text)"
    }
}
