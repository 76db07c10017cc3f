import ArchivePayload
import Foundation
import KeyedArchive
import PropertyList

/// Reads one document (a property list or a keyed archive) and says what it is: its record,
/// then a record for each document inside its data, to `SweepOptions.maximumNesting` levels.
struct DocumentAnalyzer: Sendable {
    let options: SweepOptions
    let checker: AllowListChecker
    let graphs: GraphBudget?

    init(options: SweepOptions, graphs: GraphBudget?) {
        self.options = options
        self.checker = AllowListChecker(allowList: options.allowList)
        self.graphs = graphs
    }

    /// Analyzes `data`, sniffed as a property list of `format`.
    ///
    /// - Parameters:
    ///   - strong: whether the head was unmistakable (`bplist`, `<plist`): a document that then
    ///     fails to read is reported as damaged; a weak one (OpenStep, JSON) is passed over as
    ///     the ordinary text it then is.
    ///   - nesting: how many documents hold this one.
    func analyze(_ data: Data, path: String, format: PropertyListFormat, strong: Bool, nesting: Int = 0,
                 emit: (SweepItem) -> Void) {
        guard data.count <= options.maximumItemSize else {
            emit(.unreadable(path, format: format, size: data.count,
                             "\(data.count) bytes, over the per-item limit of \(options.maximumItemSize) (--max-input-size)"))
            return
        }
        // Binary archives are decoded straight from their bytes, without a plist tree.
        if format == .binary, let archive = KeyedArchive.readFlat(data, options: options.readOptions) {
            emitArchive(archive, path: path, format: format, size: data.count, nesting: nesting, emit: emit)
            return
        }
        let value: PropertyListValue
        do {
            value = try PropertyListReader(options: options.readOptions.propertyList).read(data, as: format)
        } catch {
            if strong { emit(.unreadable(path, format: format, size: data.count, error.description)) }
            return
        }
        guard Self.claimsToBeKeyedArchive(value) else {
            emit(SweepItem(path: path, kind: .plist, format: format, size: data.count, summary: Self.summary(of: value)))
            forEachDocument(in: value) { keyPath, inner in
                analyzeNested(inner, path: SweepPath.nested(path, keyPath: keyPath), nesting: nesting, emit: emit)
            }
            return
        }
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(plist: value, options: options.readOptions)
        } catch {
            emit(.unreadable(path, format: format, size: data.count, "keyed archive that does not decode: \(error.description)"))
            return
        }
        emitArchive(archive, path: path, format: format, size: data.count, nesting: nesting, emit: emit)
    }

    /// Analyzes the bytes of a data value, when they hold a binary or XML plist, an archive, or
    /// (with `includesJSON`) JSON; anything else in data is no item.
    func analyzeNested(_ data: Data, path: String, nesting: Int, emit: (SweepItem) -> Void) {
        guard nesting < options.maximumNesting, case .propertyList(let format, let strong) = ItemSniffer.sniff(data.prefix(ItemSniffer.headSize), includesJSON: options.includesJSON),
              format != .openStep
        else { return }
        analyze(data, path: path, format: format, strong: strong, nesting: nesting + 1, emit: emit)
    }

    /// A top-level dictionary with `$archiver`, or with both `$top` and `$objects`: a keyed
    /// archive, or a damaged one (missing `$objects`, say) that must be reported as such rather
    /// than as the plain plist it still is.
    static func claimsToBeKeyedArchive(_ value: PropertyListValue) -> Bool {
        guard let dictionary = value.dictionaryValue else { return false }
        return dictionary["$archiver"] != nil || (dictionary["$top"] != nil && dictionary["$objects"] != nil)
    }

    /// The archive's record, then the documents inside its data objects.
    func emitArchive(_ archive: KeyedArchive, path: String, format: PropertyListFormat, size: Int, nesting: Int,
                     emit: (SweepItem) -> Void) {
        var item = SweepItem(path: path, kind: .keyedArchive, format: format, size: size, summary: rootSummary(archive),
                             classes: Self.classes(of: archive))
        let report = checker.check(archive)
        item.verdict = report.isAccepted ? .accepted : .refused
        item.refusedClasses = Array(Set(report.violations.map(\.readableClassName))).sorted()
        if let graphs { capture(archive, into: &item, budget: graphs) }
        emit(item)
        var paths: ArchiveKeyPaths?
        for object in archive.objects {
            guard let object else { continue }
            if case .data(let data) = object.content, data.count >= 8 {
                if paths == nil { paths = ArchiveKeyPaths(archive) }
                analyzeNested(data, path: SweepPath.nested(path, keyPath: paths!.path(to: object.uid)), nesting: nesting, emit: emit)
            }
            for field in object.fields {
                if case .inline(.data(let data)) = field.value, data.count >= 8 {
                    if paths == nil { paths = ArchiveKeyPaths(archive) }
                    let keyPath = paths!.path(to: object.uid) + SweepPath.keyStep(field.key)
                    analyzeNested(data, path: SweepPath.nested(path, keyPath: keyPath), nesting: nesting, emit: emit)
                }
            }
        }
    }

    /// Keeps the archive's graph as compact `inspect --format json`, within the budgets.
    func capture(_ archive: KeyedArchive, into item: inout SweepItem, budget: GraphBudget) {
        let objects = archive.decodedObjects.count
        guard objects <= options.maximumGraphObjects else {
            item.graphOmitted = "\(objects) objects, over the \(options.maximumGraphObjects) a report draws; run archivist inspect --format html on it"
            return
        }
        let exporter = KeyedArchiveJSONExporter(nested: NestedPayloadOptions(expands: false, readOptions: options.readOptions),
                                                prettyPrinted: false)
        guard let json = try? exporter.write(archive) else {
            item.graphOmitted = "its graph could not be written"
            return
        }
        guard budget.take(json.count) else {
            item.graphOmitted = "the report's \(options.maximumGraphBytes) bytes of graphs are spent"
            return
        }
        item.graph = json
    }

    /// Classes by readable name with their object counts, most first.
    static func classes(of archive: KeyedArchive) -> [SweepClassCount] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for object in archive.objects {
            guard let object else { continue }
            let name = object.readableClassName
            if counts[name] == nil { order.append(name) }
            counts[name, default: 0] += 1
        }
        return order.map { SweepClassCount(name: $0, count: counts[$0] ?? 0) }
            .enumerated().sorted { $0.element.count != $1.element.count ? $0.element.count > $1.element.count : $0.offset < $1.offset }
            .map(\.element)
    }

    /// `UIColor rgba(0.176, 0.165, 0.51, 1) sRGB`: the root's class and what `inspect` says of it.
    func rootSummary(_ archive: KeyedArchive) -> String? {
        guard let root = archive.rootObject else { return archive.root == nil ? "no root object" : nil }
        let text = archive.summary(of: root, nestedReadOptions: options.readOptions.propertyList).map { root.readableClassName + " " + $0 }
            ?? root.readableClassName
        return Self.shortened(text)
    }

    /// `dictionary of 12 entries`, `array of 3 elements`, `string "abc"`.
    static func summary(of value: PropertyListValue) -> String {
        switch value {
        case .dictionary(let d): return "dictionary of \(d.count) \(d.count == 1 ? "entry" : "entries")"
        case .array(let a): return "array of \(a.count) \(a.count == 1 ? "element" : "elements")"
        case .set(let s): return "set of \(s.count) \(s.count == 1 ? "member" : "members")"
        case .data(let d): return "data of \(d.count) bytes"
        case .string(let s): return shortened("string \"\(s)\"")
        default: return value.typeName
        }
    }

    static func shortened(_ text: String) -> String {
        text.count <= 160 ? text : String(text.prefix(159)) + "…"
    }

    /// Calls `body` with the key path and bytes of every data value of at least 8 bytes in a
    /// plain plist. Iterative, so a deep tree costs no stack.
    func forEachDocument(in value: PropertyListValue, _ body: (String, Data) -> Void) {
        // Each frame is a collection being walked and the index of its next child; `steps`
        // holds the key path to the frame's collection.
        var frames: [(children: [(String, PropertyListValue)], next: Int)] = []
        var steps: [String] = ["root"]
        func open(_ value: PropertyListValue) -> [(String, PropertyListValue)]? {
            switch value {
            case .array(let a), .set(let a): return a.enumerated().map { ("[\($0.offset)]", $0.element) }
            case .dictionary(let d):
                return d.enumerated().map { index, entry in (entry.key.stringValue.map(SweepPath.keyStep) ?? "[\(index)]", entry.value) }
            default: return nil
            }
        }
        if case .data(let data) = value, data.count >= 8 { body("root", data) }
        guard let top = open(value) else { return }
        frames.append((top, 0))
        while !frames.isEmpty {
            let index = frames.count - 1
            guard frames[index].next < frames[index].children.count else {
                frames.removeLast()
                steps.removeLast()
                continue
            }
            let (step, child) = frames[index].children[frames[index].next]
            frames[index].next += 1
            if case .data(let data) = child, data.count >= 8 {
                body(steps.joined() + step, data)
            } else if let children = open(child), !children.isEmpty {
                frames.append((children, 0))
                steps.append(step)
            }
        }
    }
}

/// Bytes of object graphs the HTML report may still hold, shared by every worker.
final class GraphBudget: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int

    init(bytes: Int) {
        remaining = bytes
    }

    /// Takes `bytes` from the budget; false when they are not there.
    func take(_ bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard bytes <= remaining else { return false }
        remaining -= bytes
        return true
    }
}
