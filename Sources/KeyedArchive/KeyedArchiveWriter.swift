import Foundation
import PropertyList

/// Encodes a `KeyedArchive` back into NSKeyedArchiver's layout.
///
/// Objects get new UIDs in the order Foundation's archiver assigns them: `$null` is 0, an object
/// takes the next UID when it is first met, its fields are encoded in order (depth first), and
/// its class description takes a UID after its fields, once per class. The walk uses its own
/// stack, so deep graphs and cycles need no recursion, and each object is visited once: the cost
/// is linear in the size of the graph.
public struct KeyedArchiveWriter: Sendable {
    public init() {}

    /// The archive as a property list (`$archiver`, `$version`, `$top`, `$objects`).
    public func plist(for archive: KeyedArchive) -> PropertyListValue {
        var state = State(archive: archive)
        var top = PropertyListDictionary()
        for entry in archive.top {
            top.append(key: .string(Self.escape(entry.key)), value: state.encode(entry.value))
        }
        return KeyedArchiveWriter.document(top: top, objects: state.output)
    }

    /// The top level of every keyed archive: `$version` 100000, `$archiver`, `$top` and
    /// `$objects`, in the order NSKeyedArchiver writes them.
    static func document(top: PropertyListDictionary, objects: [PropertyListValue]) -> PropertyListValue {
        var root = PropertyListDictionary()
        root.append(key: "$version", value: .integer(PropertyListInteger(100_000)))
        root.append(key: "$archiver", value: "NSKeyedArchiver")
        root.append(key: "$top", value: .dictionary(top))
        root.append(key: "$objects", value: .array(objects))
        return .dictionary(root)
    }

    /// The archive as bytes: binary, as NSKeyedArchiver writes by default, or XML.
    public func write(_ archive: KeyedArchive, format: PropertyListFormat = .binary) throws(PropertyListError) -> Data {
        let value = plist(for: archive)
        switch format {
        case .binary: return BinaryPropertyListWriter().write(value)
        case .xml: return try XMLPropertyListWriter().write(value)
        case .json: return try JSONPropertyListWriter().write(value)
        case .openStep: throw PropertyListError(.unrepresentable, "OpenStep property lists cannot be written")
        }
    }

    /// Keys that start with `$` are escaped with another `$`; unkeyed values (`$0`, `$1`…) are not.
    static func escape(_ key: String) -> String {
        guard key.hasPrefix("$") else { return key }
        let rest = key.dropFirst()
        if !rest.isEmpty, rest.allSatisfy(\.isASCIIDigit) { return key }
        return "$" + key
    }

    struct State {
        let archive: KeyedArchive
        var output: [PropertyListValue] = ["$null"]
        /// New UID of each old object UID, once assigned.
        var assigned: [Int: Int] = [:]
        /// New UID of each class description, by old class UID.
        var classUIDs: [Int: Int] = [:]

        init(archive: KeyedArchive) {
            self.archive = archive
        }

        /// The reference a field value becomes, encoding any objects it reaches first.
        mutating func encode(_ value: ArchivedValue) -> PropertyListValue {
            switch value {
            case .null: return .uid(0)
            case .inline(let v): return v
            case .array(let elements): return .array(elements.map { encode($0) })
            case .object(let uid): return .uid(UInt64(encodeObject(uid)))
            }
        }

        /// Encodes the object `uid` and everything it reaches, iteratively.
        mutating func encodeObject(_ start: Int) -> Int {
            if let done = assigned[start] { return done }
            // A frame per object being encoded: its fields so far.
            struct Frame {
                var uid: Int
                var newUID: Int
                var fieldIndex: Int
                var fields: PropertyListDictionary
                /// The objects the current field refers to, in order, and how many are handled.
                var references: [Int] = []
                var cursor = 0
                var referencesOfField = -1
            }
            var stack: [Frame] = []
            func begin(_ uid: Int, _ state: inout State, _ stack: inout [Frame]) -> Int {
                let newUID = state.output.count
                state.assigned[uid] = newUID
                guard uid < state.archive.objects.count, let object = state.archive.objects[uid] else {
                    state.output.append("$null")
                    return newUID
                }
                if object.archivedClass == nil {
                    state.output.append(Self.inlineValue(object))
                    return newUID
                }
                state.output.append(.null) // filled when the object's fields are done
                var fields = PropertyListDictionary()
                fields.reserveCapacity(object.fields.count + 1)
                fields.append(key: "$class", value: .uid(0))
                stack.append(Frame(uid: uid, newUID: newUID, fieldIndex: 0, fields: fields))
                return newUID
            }
            let result = begin(start, &self, &stack)
            while var frame = stack.popLast() {
                guard let object = archive.objects[frame.uid], let archivedClass = object.archivedClass else { continue }
                var descended = false
                while frame.fieldIndex < object.fields.count {
                    let field = object.fields[frame.fieldIndex]
                    if frame.referencesOfField != frame.fieldIndex {
                        frame.references = []
                        Self.collectReferences(field.value, into: &frame.references)
                        frame.cursor = 0
                        frame.referencesOfField = frame.fieldIndex
                    }
                    // Encode each object this field reaches that is not yet encoded, depth first,
                    // then come back to this field.
                    while frame.cursor < frame.references.count, assigned[frame.references[frame.cursor]] != nil {
                        frame.cursor += 1
                    }
                    if frame.cursor < frame.references.count {
                        let pendingUID = frame.references[frame.cursor]
                        stack.append(frame)
                        _ = begin(pendingUID, &self, &stack)
                        descended = true
                        break
                    }
                    frame.fields.append(key: .string(KeyedArchiveWriter.escape(field.key)), value: encode(field.value))
                    frame.fieldIndex += 1
                }
                if descended { continue }
                let classUID: Int
                if let known = classUIDs[archivedClass.uid] {
                    classUID = known
                } else {
                    classUID = output.count
                    classUIDs[archivedClass.uid] = classUID
                    output.append(Self.classDescription(archivedClass))
                }
                frame.fields[.string("$class")] = .uid(UInt64(classUID))
                output[frame.newUID] = .dictionary(frame.fields)
            }
            return result
        }

        static func collectReferences(_ value: ArchivedValue, into out: inout [Int]) {
            switch value {
            case .object(let uid): out.append(uid)
            case .array(let elements): for e in elements { collectReferences(e, into: &out) }
            case .null, .inline: break
            }
        }

        static func inlineValue(_ object: ArchivedObject) -> PropertyListValue {
            switch object.content {
            case .string(let s): return .string(s)
            case .number(let n): return n
            case .data(let d): return .data(d)
            case .date(let d): return .date(d)
            case .propertyList(let value): return value
            default: return "$null"
            }
        }

        static func classDescription(_ c: ArchivedClass) -> PropertyListValue {
            var d = PropertyListDictionary()
            d.append(key: "$classes", value: .array(c.chain.map { .string($0) }))
            d.append(key: "$classname", value: .string(c.name))
            if !c.hints.isEmpty { d.append(key: "$classhints", value: .array(c.hints.map { .string($0) })) }
            return .dictionary(d)
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
