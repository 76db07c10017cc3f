import Foundation
import KeyedArchive
import PropertyList

/// Writes a keyed archive's object graph in Graphviz's DOT language:
/// `archivist inspect FILE --format dot | dot -Tsvg > graph.svg`.
///
/// One node per decoded object, labelled `#UID Class` and its one-line summary, and one edge
/// per reference, labelled with the field key (`title`), the element index (`[2]`) or, for a
/// dictionary value, its key (`"name"`). `$top` is a node of its own, with an edge per entry.
/// Shared objects have several incoming edges and a cycle is a loop in the drawing, which is
/// what a graph shows best. Nested payloads are named in the summary, not drawn.
public struct KeyedArchiveDotExporter: Sendable {
    /// The longest summary shown in a node, in characters; longer ones end with `…`.
    public var maximumSummaryLength: Int
    /// Limits for identifying nested payloads named in data nodes.
    public var nestedReadOptions: PropertyListReadOptions

    public init(maximumSummaryLength: Int = 48, nestedReadOptions: PropertyListReadOptions = .default) {
        self.maximumSummaryLength = maximumSummaryLength
        self.nestedReadOptions = nestedReadOptions
    }

    /// The DOT text of `archive`, ending with a newline.
    public func render(_ archive: KeyedArchive) -> String {
        var text: [UInt8] = []
        write(archive) { text.append(contentsOf: $0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// `render(archive)` handed to `emit` in pieces of about `chunkSize` bytes, so that the
    /// graph of a large archive is never held whole.
    public func write(_ archive: KeyedArchive, chunkSize: Int = 1 << 20, to emit: (UnsafeRawBufferPointer) -> Void) {
        var out = "digraph archive {\n"
        func flush(ifOver size: Int) {
            guard out.utf8.count >= size else { return }
            out.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
            out.removeAll(keepingCapacity: true)
        }
        out += "  graph [rankdir=LR];\n"
        out += "  node [shape=box, fontname=\"Helvetica\", fontsize=11];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=9];\n"
        out += "  top [label=\"$top\", shape=ellipse];\n"
        // Gathered once for the nodes and the edges: a million objects in a large archive.
        let decoded = archive.decodedObjects
        for object in decoded {
            var label = "#\(object.uid) \(object.readableClassName)"
            if let summary = archive.summary(of: object, nestedReadOptions: nestedReadOptions) {
                label += "\n" + shortened(summary)
            }
            out += "  o\(object.uid) [label=\(Self.quoted(label))];\n"
            flush(ifOver: chunkSize)
        }
        var edges: [(from: String, value: ArchivedValue, label: String)] = []
        for field in archive.top { edges.append(("top", field.value, field.key)) }
        for edge in edges {
            appendEdges(from: edge.from, value: edge.value, label: edge.label, archive: archive, to: &out)
        }
        for object in decoded {
            edges.removeAll(keepingCapacity: true)
            edgeSources(of: object, in: archive, into: &edges)
            for edge in edges {
                appendEdges(from: edge.from, value: edge.value, label: edge.label, archive: archive, to: &out)
            }
            flush(ifOver: chunkSize)
        }
        out += "}\n"
        flush(ifOver: 0)
    }

    /// Every field of `object` as an edge source; the fields a collection's elements come from
    /// are labelled by index or dictionary key rather than by `NS.objects[i]`.
    func edgeSources(of object: ArchivedObject, in archive: KeyedArchive, into edges: inout [(from: String, value: ArchivedValue, label: String)]) {
        let node = "o\(object.uid)"
        for field in object.fields {
            switch (object.content, field.key, field.value) {
            case (.array, "NS.objects", .array(let elements)), (.set, "NS.objects", .array(let elements)),
                 (.orderedSet, "NS.objects", .array(let elements)):
                for (i, e) in elements.enumerated() { edges.append((node, e, "[\(i)]")) }
            case (.dictionary(let keys, _), "NS.objects", .array(let elements)) where keys.count == elements.count:
                for (key, e) in zip(keys, elements) { edges.append((node, e, keyLabel(key, archive: archive))) }
            case (.dictionary, "NS.keys", .array(let elements)):
                for (i, e) in elements.enumerated() { edges.append((node, e, "key [\(i)]")) }
            default:
                edges.append((node, field.value, field.key))
            }
        }
    }

    /// An edge per reference in `value` (an inline array of references gives one per element).
    func appendEdges(from: String, value: ArchivedValue, label: String, archive: KeyedArchive, to out: inout String) {
        switch value {
        case .object(let uid):
            guard uid < archive.objects.count, archive.objects[uid] != nil else { return }
            out += "  \(from) -> o\(uid) [label=\(Self.quoted(label))];\n"
        case .array(let elements):
            for (i, e) in elements.enumerated() {
                appendEdges(from: from, value: e, label: "\(label)[\(i)]", archive: archive, to: &out)
            }
        case .null, .inline:
            break
        }
    }

    func keyLabel(_ key: ArchivedValue, archive: KeyedArchive) -> String {
        if let s = archive.string(key) { return shortened(PropertyListPrettyPrinter.quoted(s)) }
        if let uid = key.uid { return "key #\(uid)" }
        return "key"
    }

    func shortened(_ text: String) -> String {
        // No more bytes than the limit is no more characters: not counted one by one.
        guard text.utf8.count > maximumSummaryLength, text.count > maximumSummaryLength else { return text }
        return String(text.prefix(max(1, maximumSummaryLength - 1))) + "…"
    }

    /// A DOT string: quotes and backslashes escaped (so a `\l` in data is not a DOT escape),
    /// line breaks as `\n`, other control characters dropped.
    static func quoted(_ text: String) -> String {
        // Byte by byte: every byte of a multi-byte UTF-8 sequence is 0x80 or above, so only
        // ASCII is escaped or dropped, as scalar by scalar, without a string grown per scalar.
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x00..<0x20, 0x7F: break
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }
}
