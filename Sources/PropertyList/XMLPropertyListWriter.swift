import Foundation

/// Writes XML property lists byte for byte as Apple's CoreFoundation (`CFPropertyList.c`) does.
///
/// That means: Apple's header and DOCTYPE, tab indentation, dictionary keys sorted by UTF-16
/// code unit, only `<`, `>` and `&` escaped, base64 in CF's line layout, reals as `%.17g`,
/// dates in whole seconds, and UIDs as `CF$UID` dictionaries. Sets are written as arrays.
///
/// It departs from CF only where CF's output would not read back: NUL, CR, U+FFFE and U+FFFF
/// become character references, and indentation stops growing at 512 levels.
public struct XMLPropertyListWriter: Sendable {
    public init() {}

    /// Writes `value` as an XML property list in UTF-8.
    ///
    /// - Throws: `PropertyListError` (`.unrepresentable`) for what XML cannot carry: `.null`,
    ///   strings with lone surrogates, non-string dictionary keys, and dates that are not finite.
    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        var emitter = Emitter()
        emitter.out.append(XMLPropertyListText.header)
        try emitter.emitTree(value)
        emitter.out.append(XMLPropertyListText.footer)
        return emitter.finish()
    }

    /// The output buffer and the walk over the tree, done with an explicit stack so that any depth can be written.
    private struct Emitter: ~Copyable {
        var out = OutputBuffer(capacity: 1 << 16)

        /// An open array or dictionary and the next child to write.
        private struct Open {
            /// An array's elements, or a dictionary's values in entry order.
            var children: [PropertyListValue]
            /// A dictionary's keys in writing order; nil for an array.
            var keys: XMLPropertyListText.SortedKeys?
            var next = 0
            var indent: Int
        }

        private var open: [Open] = []
        /// The key orders met most recently, with the keys arrays they were made from (kept so
        /// that their storage identifies them: dictionaries of one shape share one keys array,
        /// the readers see to it).
        private var recentKeys = RecentRing<(keys: [PropertyListValue], sorted: XMLPropertyListText.SortedKeys)>()

        consuming func finish() -> Data {
            out.data()
        }

        mutating func emitTree(_ root: PropertyListValue) throws(PropertyListError) {
            try emit(root, indent: 0)
            while !open.isEmpty {
                let top = open.count - 1
                let index = open[top].next
                guard index < open[top].children.count else {
                    tabs(open[top].indent)
                    if open[top].keys == nil { out.append("</array>\n") } else { out.append("</dict>\n") }
                    open.removeLast()
                    continue
                }
                open[top].next += 1
                let indent = open[top].indent + 1
                if let keys = open[top].keys {
                    tabs(indent)
                    keys.appendLine(index, into: &out)
                    try emit(open[top].children[keys.order[index]], indent: indent)
                } else {
                    try emit(open[top].children[index], indent: indent)
                }
            }
        }

        /// Writes a scalar whole, or opens a container whose children the loop in `emitTree` writes.
        private mutating func emit(_ value: PropertyListValue, indent: Int) throws(PropertyListError) {
            tabs(indent)
            switch value {
            case .string(var s):
                s.withUTF8 { XMLPropertyListText.appendString($0, into: &out) }
            case .integer(let i):
                XMLPropertyListText.appendInteger(i, into: &out)
            case .real(let r):
                XMLPropertyListText.appendReal(r, into: &out)
            case .bool(let b):
                if b { out.append("<true/>\n") } else { out.append("<false/>\n") }
            case .date(let d):
                guard XMLPropertyListText.appendDate(d, into: &out) else {
                    throw unrepresentable("the date \(d.timeIntervalSinceReferenceDate) is not finite or too far from 2001 to be written in XML")
                }
            case .data(let d):
                d.withUnsafeBytes { XMLPropertyListText.appendData($0, indent: indent, into: &out) }
            case .uid(let u):
                XMLPropertyListText.appendUID(u, indent: indent, into: &out)
            case .array(let children), .set(let children):
                guard !children.isEmpty else {
                    out.append("<array/>\n")
                    return
                }
                out.append("<array>\n")
                open.append(Open(children: children, keys: nil, indent: indent))
            case .dictionary(let dictionary):
                guard !dictionary.isEmpty else {
                    out.append("<dict/>\n")
                    return
                }
                out.append("<dict>\n")
                let keys = try sortedKeys(dictionary.keys)
                open.append(Open(children: dictionary.values, keys: keys, indent: indent))
            case .invalidUTF16String:
                throw unrepresentable("a string with lone UTF-16 surrogates cannot be written in XML")
            case .null:
                throw unrepresentable("null cannot be written in XML")
            }
        }

        /// The writing order of a dictionary's keys, from the recent ones when it has the
        /// same keys array.
        private mutating func sortedKeys(_ keys: [PropertyListValue]) throws(PropertyListError) -> XMLPropertyListText.SortedKeys {
            if let recent = recentKeys.first(where: { Self.sameStorage($0.keys, keys) }) { return recent.sorted }
            var names: [String] = []
            names.reserveCapacity(keys.count)
            for key in keys {
                guard case .string(let s) = key else {
                    throw unrepresentable("a dictionary key of type \(key.typeName) cannot be written in XML")
                }
                names.append(s)
            }
            let sorted = XMLPropertyListText.SortedKeys(names: names)
            recentKeys.remember((keys, sorted))
            return sorted
        }

        static func sameStorage(_ a: [PropertyListValue], _ b: [PropertyListValue]) -> Bool {
            a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
        }

        @inline(__always)
        private mutating func tabs(_ n: Int) {
            XMLPropertyListText.tabs(n, into: &out)
        }

        // MARK: Errors

        /// The error for a value XML cannot carry, with the key path of the value being written.
        private func unrepresentable(_ message: String) -> PropertyListError {
            var path: [String] = []
            for container in open {
                // The child being written is the one just before `next`.
                let index = container.next - 1
                guard index >= 0 else { continue }
                path.append(container.keys.map { $0.names[$0.order[index]] } ?? "[\(index)]")
            }
            return PropertyListError(.unrepresentable, message, keyPath: path)
        }
    }
}
