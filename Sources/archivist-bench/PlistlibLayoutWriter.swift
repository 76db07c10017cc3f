import Foundation
import PropertyList

/// Writes a binary property list exactly as CPython's `plistlib.dumps(fmt=FMT_BINARY)` does,
/// so the process benchmark reads a file in a layout that is not our own writer's.
///
/// plistlib flattens depth first (a container, then its keys, then its values), uniques
/// scalars by type and value but containers and UIDs by identity, sorts dictionary keys, and
/// sizes references and offsets by `_count_to_size` (1, 2, 4 or 8 bytes).
struct PlistlibLayoutWriter {
    /// A value as plistlib sees it. `uid` carries an identity: plistlib writes one object per
    /// `UID` instance, and a generator that caches its `UID(n)` instances shares them.
    indirect enum Value {
        case string(String)
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case date(Double)
        case data([UInt8])
        case uid(UInt64)
        case array([Value])
        case dictionary([(String, Value)])
    }

    private enum ScalarKey: Hashable {
        case string(String)
        case bool(Bool)
        case integer(Int64)
        case real(UInt64)
        case date(UInt64)
        case data([UInt8])
        case uid(UInt64)
    }

    private var objects: [Value] = []
    private var scalarRefs: [ScalarKey: Int] = [:]

    /// The file plistlib writes for a property list of the types it has (nil for one with
    /// sets, nulls, integers beyond 64 bits or strings that are not Unicode): dates as their
    /// seconds since 2001, as plistlib writes a `datetime`.
    static func write(_ value: PropertyListValue) -> Data? {
        func converted(_ value: PropertyListValue) -> Value? {
            switch value {
            case .string(let s): return .string(s)
            case .bool(let b): return .bool(b)
            case .integer(let i): return i.int64Value.map { .integer($0) }
            case .real(let r): return .real(r)
            case .date(let d): return .date(d.timeIntervalSinceReferenceDate)
            case .data(let d): return .data([UInt8](d))
            case .uid(let u): return .uid(u)
            case .array(let elements):
                var out: [Value] = []
                out.reserveCapacity(elements.count)
                for element in elements {
                    guard let c = converted(element) else { return nil }
                    out.append(c)
                }
                return .array(out)
            case .dictionary(let d):
                var out: [(String, Value)] = []
                out.reserveCapacity(d.count)
                for (key, element) in d {
                    guard case .string(let k) = key, let c = converted(element) else { return nil }
                    out.append((k, c))
                }
                return .dictionary(out)
            case .invalidUTF16String, .set, .null: return nil
            }
        }
        return converted(value).map { write($0) }
    }

    /// The file plistlib writes for `value`.
    static func write(_ value: Value) -> Data {
        var writer = PlistlibLayoutWriter()
        let top = writer.flatten(value)
        return writer.serialize(top: top)
    }

    private static func scalarKey(_ value: Value) -> ScalarKey? {
        switch value {
        case .string(let s): .string(s)
        // `bool` is a subclass of `int` in Python, and plistlib's table keys on the type: one
        // object for `True`, one for `False`, apart from the integers 1 and 0.
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(i)
        case .real(let r): .real(r.bitPattern)
        case .date(let d): .date(d.bitPattern)
        case .data(let d): .data(d)
        // UIDs are shared by identity; the generator caches one instance per number.
        case .uid(let u): .uid(u)
        case .array, .dictionary: nil
        }
    }

    /// The object number of `value`, flattening it first (plistlib's `_flatten`, iteratively).
    private mutating func flatten(_ value: Value) -> Int {
        // Pre-order: a container is numbered before its children.
        var stack: [Value] = [value]
        var topRef = -1
        while let v = stack.popLast() {
            if let key = Self.scalarKey(v) {
                if scalarRefs[key] != nil { continue }
                scalarRefs[key] = objects.count
            }
            if topRef < 0 { topRef = objects.count }
            objects.append(v)
            switch v {
            case .array(let elements):
                stack.append(contentsOf: elements.reversed())
            case .dictionary(let entries):
                let sorted = entries.sorted { $0.0 < $1.0 }
                stack.append(contentsOf: sorted.map(\.1).reversed())
                stack.append(contentsOf: sorted.map { Value.string($0.0) }.reversed())
            default:
                break
            }
        }
        return topRef
    }

    private static func countToSize(_ count: Int) -> Int {
        count < 1 << 8 ? 1 : count < 1 << 16 ? 2 : count < 1 << 32 ? 4 : 8
    }

    private mutating func serialize(top: Int) -> Data {
        // Containers are numbered in flattening order; the object numbers of their children
        // are recomputed while writing, in the same order.
        let refSize = Self.countToSize(objects.count)
        var out: [UInt8] = Array("bplist00".utf8)
        out.reserveCapacity(objects.count * 24)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        // Numbers of containers, in order, and the walk that assigns children their numbers.
        var containerRefs = ContainerRefs(objects: objects, scalarRefs: scalarRefs)
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            switch object {
            case .string(let s):
                if s.utf8.allSatisfy({ $0 < 0x80 }) {
                    Self.writeSize(0x50, s.utf8.count, into: &out)
                    out.append(contentsOf: s.utf8)
                } else {
                    let units = Array(s.utf16)
                    Self.writeSize(0x60, units.count, into: &out)
                    for u in units { out.append(UInt8(u >> 8)); out.append(UInt8(u & 0xFF)) }
                }
            case .bool(let b):
                out.append(b ? 0x09 : 0x08)
            case .integer(let i):
                if i < 0 {
                    out.append(0x13); Self.append(UInt64(bitPattern: i), 8, into: &out)
                } else if i < 1 << 8 {
                    out.append(0x10); Self.append(UInt64(i), 1, into: &out)
                } else if i < 1 << 16 {
                    out.append(0x11); Self.append(UInt64(i), 2, into: &out)
                } else if i < 1 << 32 {
                    out.append(0x12); Self.append(UInt64(i), 4, into: &out)
                } else {
                    out.append(0x13); Self.append(UInt64(i), 8, into: &out)
                }
            case .real(let r):
                out.append(0x23); Self.append(r.bitPattern, 8, into: &out)
            case .date(let d):
                out.append(0x33); Self.append(d.bitPattern, 8, into: &out)
            case .data(let d):
                Self.writeSize(0x40, d.count, into: &out)
                out.append(contentsOf: d)
            case .uid(let u):
                if u < 1 << 8 {
                    out.append(0x80); Self.append(u, 1, into: &out)
                } else if u < 1 << 16 {
                    out.append(0x81); Self.append(u, 2, into: &out)
                } else if u < 1 << 32 {
                    out.append(0x83); Self.append(u, 4, into: &out)
                } else {
                    out.append(0x87); Self.append(u, 8, into: &out)
                }
            case .array(let elements):
                let refs = containerRefs.children(of: index, elements)
                Self.writeSize(0xA0, refs.count, into: &out)
                for r in refs { Self.append(UInt64(r), refSize, into: &out) }
            case .dictionary(let entries):
                let sorted = entries.sorted { $0.0 < $1.0 }
                let refs = containerRefs.children(of: index, sorted.map { Value.string($0.0) } + sorted.map(\.1))
                Self.writeSize(0xD0, sorted.count, into: &out)
                for r in refs { Self.append(UInt64(r), refSize, into: &out) }
            }
        }
        let offsetTableOffset = out.count
        let offsetSize = Self.countToSize(offsetTableOffset)
        for o in offsets { Self.append(UInt64(o), offsetSize, into: &out) }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0])
        out.append(UInt8(offsetSize))
        out.append(UInt8(refSize))
        Self.append(UInt64(objects.count), 8, into: &out)
        Self.append(UInt64(top), 8, into: &out)
        Self.append(UInt64(offsetTableOffset), 8, into: &out)
        return Data(out)
    }

    /// The object numbers of each container's children: a container's first new child follows
    /// the container itself, and each new child's subtree is numbered before the next child.
    private struct ContainerRefs {
        let objects: [Value]
        let scalarRefs: [ScalarKey: Int]
        /// Per object number: the number after its whole subtree.
        var subtreeEnd: [Int]

        init(objects: [Value], scalarRefs: [ScalarKey: Int]) {
            self.objects = objects
            self.scalarRefs = scalarRefs
            subtreeEnd = Array(repeating: -1, count: objects.count)
        }

        /// Children of the container numbered `index`, which owns the numbers after it.
        mutating func children(of index: Int, _ values: [Value]) -> [Int] {
            var next = index + 1
            var refs: [Int] = []
            refs.reserveCapacity(values.count)
            for v in values {
                if let key = PlistlibLayoutWriter.scalarKey(v), let r = scalarRefs[key], r < next {
                    refs.append(r)
                    continue
                }
                refs.append(next)
                next = end(of: next)
            }
            subtreeEnd[index] = next
            return refs
        }

        /// The number after the subtree of object `index`.
        mutating func end(of index: Int) -> Int {
            if subtreeEnd[index] >= 0 { return subtreeEnd[index] }
            switch objects[index] {
            case .array(let elements):
                _ = children(of: index, elements)
            case .dictionary(let entries):
                let sorted = entries.sorted { $0.0 < $1.0 }
                _ = children(of: index, sorted.map { Value.string($0.0) } + sorted.map(\.1))
            default:
                subtreeEnd[index] = index + 1
            }
            return subtreeEnd[index]
        }
    }

    private static func writeSize(_ token: UInt8, _ size: Int, into out: inout [UInt8]) {
        if size < 15 {
            out.append(token | UInt8(size))
        } else if size < 1 << 8 {
            out.append(token | 0xF); out.append(0x10); append(UInt64(size), 1, into: &out)
        } else if size < 1 << 16 {
            out.append(token | 0xF); out.append(0x11); append(UInt64(size), 2, into: &out)
        } else if size < 1 << 32 {
            out.append(token | 0xF); out.append(0x12); append(UInt64(size), 4, into: &out)
        } else {
            out.append(token | 0xF); out.append(0x13); append(UInt64(size), 8, into: &out)
        }
    }

    private static func append(_ value: UInt64, _ width: Int, into out: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
