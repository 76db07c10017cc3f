import Foundation
import KeyedArchive
import PropertyList
import TypedStream

/// Renders a keyed archive as an indented tree for people: `archivist inspect FILE`.
///
/// Each `$top` entry is printed (the root first), then every object below it once:
///
/// ```
/// root = #1 NSDictionary 2 entries
///   "name" => #3 NSString "Alice"
///   "home" => #4 NSURL https://example.com/alice
///     NS.base = #5 NSURL https://example.com
///       NS.base = nil
///       NS.relative = #6 NSString "https://example.com"
///     NS.relative = #7 NSString "alice"
///   "self" => ↺ #1 NSDictionary (cycle)
///
/// 6 objects, 3 classes
///   NSString      3
///   NSURL         2
///   NSDictionary  1
/// ```
///
/// An object is shown in full at its first reference; later references show `→ #UID` and its
/// summary, and a reference back to an ancestor shows `↺ #UID (cycle)`, so shared objects
/// and cycles print in size linear in the archive. Collections list their elements (`[i] =`),
/// dictionaries their entries (`key => value`), and other classes their fields (`key = value`).
/// Objects whose summary says everything (strings, numbers, dates, data, colors…) list no
/// fields. The walk uses its own stack, not the call stack, so any depth prints.
public struct KeyedArchiveTreePrinter: Sendable {
    /// ANSI colors, as `PropertyListPrettyPrinter` uses them. Off unless asked for; the CLI
    /// turns them on only on a terminal without `NO_COLOR`.
    public var usesColors: Bool
    public var indentUnit: String
    /// Whether to decode nested plists, archives and JSON in place (`--expand-nested`).
    public var nested: NestedPayloadOptions
    /// End with the count of objects per class.
    public var showsClassSummary: Bool
    /// The deepest level indented in full. Deeper lines keep this indentation and show their
    /// level as `[N]`, so a chain of 100,000 objects prints in linear, not quadratic, size.
    public var maximumIndentation: Int

    public init(usesColors: Bool = false, indentUnit: String = "  ", nested: NestedPayloadOptions = .init(),
                showsClassSummary: Bool = true, maximumIndentation: Int = 64) {
        self.usesColors = usesColors
        self.indentUnit = indentUnit
        self.nested = nested
        self.showsClassSummary = showsClassSummary
        self.maximumIndentation = maximumIndentation
    }

    /// The tree of `archive`, ending with a newline.
    public func render(_ archive: KeyedArchive) -> String {
        var renderer = Renderer(printer: self, archive: archive, nesting: 0)
        renderer.renderTop()
        if showsClassSummary { renderer.renderClassSummary() }
        return renderer.out
    }

    /// `render(archive)` handed to `emit` in pieces of about `chunkSize` bytes, so that the
    /// tree of a large archive is never held whole.
    public func write(_ archive: KeyedArchive, chunkSize: Int = 1 << 20, to emit: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var renderer = Renderer(printer: self, archive: archive, nesting: 0)
            renderer.emit = emit
            renderer.chunkSize = max(chunkSize, 1)
            renderer.renderTop()
            if showsClassSummary { renderer.renderClassSummary() }
            renderer.flush()
        }
    }
}

extension KeyedArchiveTreePrinter {
    /// One pending piece of output. The stack holds them in reverse order of printing.
    enum Work {
        /// `label` then the value, then (for a first-seen object) its children one level deeper.
        case entry(label: String, value: ArchivedValue, suffix: String, depth: Int)
        /// Already formatted lines (a nested document), each indented to `depth`.
        case block([String], depth: Int)
        /// Leaving an object's children: it is no longer an ancestor.
        case leave(uid: Int)
    }

    struct Renderer {
        let printer: KeyedArchiveTreePrinter
        let archive: KeyedArchive
        /// How many documents this archive is nested in (0 for the file itself).
        let nesting: Int
        var out = ""
        var printed: [Bool]
        var onPath: [Bool]
        var stack: [Work] = []
        /// Summaries by UID: a shared data object is identified once, not at every reference
        /// (see `cachedSummary`).
        var summaries: [Int: String] = [:]
        /// Where the text goes once `out` passes `chunkSize`; nil keeps it all in `out`.
        var emit: ((UnsafeRawBufferPointer) -> Void)?
        var chunkSize = 1 << 20
        /// The indentation of the first levels, made once rather than for every line.
        let indents: [String]

        init(printer: KeyedArchiveTreePrinter, archive: KeyedArchive, nesting: Int) {
            self.printer = printer
            self.archive = archive
            self.nesting = nesting
            printed = Array(repeating: false, count: archive.objects.count)
            onPath = Array(repeating: false, count: archive.objects.count)
            indents = (0...min(max(printer.maximumIndentation, 0), 16)).map { String(repeating: printer.indentUnit, count: $0) }
        }

        func paint(_ text: String, _ code: String) -> String {
            printer.usesColors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
        }

        func indent(_ depth: Int) -> String {
            if depth < indents.count { return indents[depth] }
            guard depth > printer.maximumIndentation else { return String(repeating: printer.indentUnit, count: depth) }
            return String(repeating: printer.indentUnit, count: printer.maximumIndentation) + paint("[\(depth)]", "2") + " "
        }

        /// `$top`, the root entry first, then the others in the order written.
        mutating func renderTop() {
            var entries = archive.top
            if let root = archive.root, let rootIndex = entries.firstIndex(where: { $0.value == root }) {
                entries.insert(entries.remove(at: rootIndex), at: 0)
            }
            if entries.isEmpty { out += paint("(empty $top)", "2") + "\n" }
            for field in entries.reversed() {
                stack.append(.entry(label: fieldLabel(field.key), value: field.value, suffix: "", depth: 0))
            }
            run()
        }

        mutating func run() {
            while let work = stack.popLast() {
                switch work {
                case .entry(let label, let value, let suffix, let depth):
                    renderEntry(label: label, value: value, suffix: suffix, depth: depth)
                case .block(let lines, let depth):
                    let prefix = indent(depth)
                    for line in lines { out += prefix + line + "\n" }
                case .leave(let uid):
                    onPath[uid] = false
                }
                if emit != nil, out.utf8.count >= chunkSize { flush() }
            }
        }

        /// Hands `out` to `emit` and empties it.
        mutating func flush() {
            guard let emit, !out.isEmpty else { return }
            out.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
            out.removeAll(keepingCapacity: true)
        }

        mutating func renderEntry(label: String, value: ArchivedValue, suffix: String, depth: Int) {
            let head = indent(depth) + label
            switch value {
            case .null:
                out += head + paint("nil", "35") + suffix + "\n"
            case .inline(let plist):
                renderInline(plist, head: head, suffix: suffix, depth: depth)
            case .array(let elements):
                out += head + paint("[\(KeyedArchive.count(elements.count, "element"))]", "2") + suffix + "\n"
                for (i, element) in elements.enumerated().reversed() {
                    stack.append(.entry(label: indexLabel(i), value: element, suffix: "", depth: depth + 1))
                }
            case .object(let uid):
                renderObject(uid, head: head, suffix: suffix, depth: depth)
            }
        }

        mutating func renderObject(_ uid: Int, head: String, suffix: String, depth: Int) {
            guard uid < archive.objects.count, let object = archive.objects[uid] else {
                out += head + paint("#\(uid)", "35") + " " + paint("(not decoded)", "31") + suffix + "\n"
                return
            }
            if onPath[uid] {
                out += head + paint("↺ #\(uid)", "31") + " " + classText(object) + " " + paint("(cycle)", "31") + suffix + "\n"
                return
            }
            let summary = cachedSummary(object)
            if printed[uid] {
                out += head + paint("→ #\(uid)", "2") + " " + classText(object) + summary + suffix + "\n"
                return
            }
            printed[uid] = true
            // Appended piece by piece: a million lines, each joined first, cost a string each.
            out += head
            out += paint("#\(uid)", "35")
            out += " "
            out += classText(object, showsWrittenName: true)
            out += summary
            out += suffix
            out += "\n"
            let childDepth = depth + 1
            var children: [Work] = []
            switch object.content {
            case .array(let elements), .set(let elements), .orderedSet(let elements), .oldStyleArray(let elements):
                for (i, element) in elements.enumerated() {
                    children.append(.entry(label: indexLabel(i), value: element, suffix: "", depth: childDepth))
                }
            case .countedSet(let members, let counts):
                for (i, member) in members.enumerated() {
                    let count = i < counts.count ? counts[i] : 1
                    children.append(.entry(label: indexLabel(i), value: member, suffix: paint(" ×\(count)", "2"), depth: childDepth))
                }
            case .dictionary(let keys, let values):
                for (key, value) in zip(keys, values) {
                    children.append(.entry(label: keyText(key) + " => ", value: value, suffix: "", depth: childDepth))
                }
            case .data(let data):
                if let lines = expandedLines(data) { children.append(.block(lines, depth: childDepth)) }
            case .url, .attributedString, .error, .object:
                for field in object.fields {
                    children.append(.entry(label: fieldLabel(field.key), value: field.value, suffix: "", depth: childDepth))
                }
            case .string, .number, .decimalNumber, .date, .null, .uuid, .geometry, .indexSet, .locale, .timeZone, .color:
                // The summary says it all.
                break
            }
            guard !children.isEmpty else { return }
            onPath[uid] = true
            stack.append(.leave(uid: uid))
            stack.append(contentsOf: children.reversed())
        }

        mutating func renderInline(_ plist: PropertyListValue, head: String, suffix: String, depth: Int) {
            switch plist {
            case .array, .dictionary, .set:
                // An inline collection: plutil -p style, re-indented under the entry.
                let text = PropertyListPrettyPrinter(usesColors: printer.usesColors, indentUnit: printer.indentUnit).render(plist)
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if lines.last == "" { lines.removeLast() }
                out += head + (lines.first ?? "") + (lines.count == 1 ? suffix : "") + "\n"
                let prefix = indent(depth)
                for (i, line) in lines.dropFirst().enumerated() {
                    out += prefix + line + (i == lines.count - 2 ? suffix : "") + "\n"
                }
            case .data(let data):
                out += head + paint(KeyedArchive.dataSummary(data, options: printer.nested.readOptions.propertyList), "36") + suffix + "\n"
                if let lines = expandedLines(data) { stack.append(.block(lines, depth: depth + 1)) }
            default:
                out += head
                out += scalarText(plist)
                out += suffix
                out += "\n"
            }
        }

        /// A nested plist, JSON document or archive, rendered for printing under its data line.
        func expandedLines(_ data: Data) -> [String]? {
            guard printer.nested.expands, nesting < printer.nested.maximumNesting else { return nil }
            guard let content = NestedPayload.expand(data, options: printer.nested.readOptions) else { return nil }
            let text: String
            switch content {
            case .propertyList(let value, _), .json(let value):
                text = PropertyListPrettyPrinter(usesColors: printer.usesColors, indentUnit: printer.indentUnit).render(value)
            case .bookmark(let bookmark):
                text = PropertyListPrettyPrinter(usesColors: printer.usesColors, indentUnit: printer.indentUnit).render(BookmarkPropertyList.value(of: bookmark))
            case .aliasRecord(let alias):
                text = PropertyListPrettyPrinter(usesColors: printer.usesColors, indentUnit: printer.indentUnit).render(BookmarkPropertyList.value(of: alias))
            case .keyedArchive(let inner, _), .typedStream(let inner), .nibArchive(let inner):
                var renderer = Renderer(printer: printer, archive: inner, nesting: nesting + 1)
                renderer.renderTop()
                text = renderer.out
            }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }

        // MARK: Pieces of a line

        /// The readable class name, bold; with its name as written when that was mangled.
        func classText(_ object: ArchivedObject, showsWrittenName: Bool = false) -> String {
            var text = paint(object.readableClassName, "1")
            if showsWrittenName, let archivedClass = object.archivedClass, archivedClass.isMangled {
                text += " " + paint("(\(archivedClass.name))", "2")
            }
            return text
        }

        /// The summary of `object`, remembered for data (whose payload is identified) and
        /// URLs and attributed strings (resolved through other objects); the rest are quicker
        /// to say again than to look up, and a large archive holds a million of them.
        mutating func cachedSummary(_ object: ArchivedObject) -> String {
            switch object.content {
            case .data, .url, .attributedString: break
            default: return summaryText(object)
            }
            if let known = summaries[object.uid] { return known }
            let text = summaryText(object)
            summaries[object.uid] = text
            return text
        }

        func summaryText(_ object: ArchivedObject) -> String {
            guard let summary = archive.summary(of: object, nestedReadOptions: printer.nested.readOptions.propertyList) else { return "" }
            let code = switch object.content {
            case .string: "32"
            case .number, .decimalNumber: "33"
            case .date, .data: "36"
            case .array, .set, .orderedSet, .countedSet, .dictionary, .oldStyleArray: "2"
            default: "0"
            }
            return " " + (code == "0" ? summary : paint(summary, code))
        }

        func scalarText(_ value: PropertyListValue) -> String {
            switch value {
            case .string(let s): paint(PropertyListPrettyPrinter.quoted(s), "32")
            case .integer, .real: paint(KeyedArchive.numberText(value), "33")
            case .bool(let b): paint(b ? "true" : "false", "35")
            case .date(let d): paint(KeyedArchive.isoText(d), "36")
            case .uid(let u): paint("<CF$UID \(u)>", "35")
            case .null: paint("null", "35")
            case .invalidUTF16String(let units):
                paint("<invalid UTF-16: " + units.map(HexText.uppercase).joined(separator: " ") + ">", "31")
            case .data(let d): paint(KeyedArchive.dataSummary(d, options: printer.nested.readOptions.propertyList), "36")
            case .array, .dictionary, .set: value.typeName
            }
        }

        /// A dictionary key: strings and numbers by their value (keys are nearly always strings,
        /// and their UIDs would only be noise); other objects by UID, class and summary.
        mutating func keyText(_ key: ArchivedValue) -> String {
            switch key {
            case .null: return paint("nil", "35")
            case .inline(let plist): return scalarText(plist)
            case .array(let elements): return paint("[\(KeyedArchive.count(elements.count, "element"))]", "2")
            case .object(let uid):
                guard let object = archive.object(key) else { return paint("#\(uid)", "35") }
                switch object.content {
                case .string(let s): return paint(PropertyListPrettyPrinter.quoted(s), "34")
                case .number(let n): return paint(KeyedArchive.numberText(n), "33")
                default: return paint("#\(uid)", "35") + " " + classText(object) + cachedSummary(object)
                }
            }
        }

        func indexLabel(_ i: Int) -> String { paint("[\(i)]", "2") + " = " }

        /// A field key, quoted only when it would not read as one word.
        func fieldLabel(_ key: String) -> String {
            // Printable ASCII but `=` and `"` is one word (the usual key, answered without looking
            // up each scalar's properties); anything else is checked scalar by scalar.
            let ascii = key.utf8.allSatisfy { $0 > 0x20 && $0 <= 0x7F && $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: "\"") }
            let plain = !key.isEmpty && (ascii || key.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && $0.value >= 0x20 && $0 != "=" && $0 != "\"" })
            return paint(plain ? key : PropertyListPrettyPrinter.quoted(key), "34") + " = "
        }

        // MARK: Class summary

        mutating func renderClassSummary() {
            if let stream = archive.typedStream {
                renderClassSummary(stream)
                return
            }
            let counts = archive.classCounts.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
            let objectCount = counts.reduce(0) { $0 + $1.count }
            out += "\n" + paint("\(KeyedArchive.count(objectCount, "object")), \(KeyedArchive.count(counts.count, "class", plural: "classes"))", "1") + "\n"
            let names = counts.map { entry -> String in
                guard let readable = SwiftClassName.demangle(entry.name) else { return entry.name }
                return "\(readable) (\(entry.name))"
            }
            let width = names.map(\.count).max() ?? 0
            for (name, entry) in zip(names, counts) {
                let padding = String(repeating: " ", count: width - name.count + 2)
                out += printer.indentUnit + paint(name, "1") + padding + paint("\(entry.count)", "33") + "\n"
            }
        }

        /// A typedstream's own objects by class, with each class's version as the stream wrote
        /// it, and the stream's byte order and system version: what the keyed form above cannot
        /// show.
        mutating func renderClassSummary(_ stream: TypedStream) {
            var counts = [Int](repeating: 0, count: stream.classes.count)
            for object in stream.objects where object.classIndex >= 0 && object.classIndex < counts.count { counts[object.classIndex] += 1 }
            let listed = stream.classes.indices.filter { counts[$0] > 0 }
                .sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : stream.classes[$0].name < stream.classes[$1].name }
            let header = "\(KeyedArchive.count(stream.objects.count, "object")), \(KeyedArchive.count(listed.count, "class", plural: "classes"))"
                + " in an NSArchiver typedstream (\(stream.header.byteOrder.rawValue)-endian, system version \(stream.header.systemVersion))"
            out += "\n" + paint(header, "1") + "\n"
            let names = listed.map { "\(stream.classes[$0].name) v\(stream.classes[$0].version)" }
            let width = names.map(\.count).max() ?? 0
            for (name, index) in zip(names, listed) {
                let padding = String(repeating: " ", count: width - name.count + 2)
                out += printer.indentUnit + paint(name, "1") + padding + paint("\(counts[index])", "33") + "\n"
            }
        }
    }
}
