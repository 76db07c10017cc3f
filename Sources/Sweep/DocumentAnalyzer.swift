import ArchivePayload
import CoreDataStore
import Foundation
import KeyedArchive
import PropertyList
import Synchronization
import TypedStream
import NIBArchive
import Bookmark

/// Reads one document (a property list or a keyed archive) and says what it is: its record,
/// then a record for each document inside its data, to `SweepOptions.maximumNesting` levels.
struct DocumentAnalyzer: Sendable {
    let options: SweepOptions
    let checker: AllowListChecker
    let graphs: GraphBudget?
    /// Verdicts class by class, and the refused classes of each set of classes, shared by every
    /// worker: most archives repeat a few classes, and a full check rebuilds the list each time.
    let verdicts: ClassVerdictCache
    let refusals = RefusalCache()

    init(options: SweepOptions, graphs: GraphBudget?) {
        self.options = options
        self.checker = AllowListChecker(allowList: options.allowList)
        self.graphs = graphs
        self.verdicts = ClassVerdictCache(checker: checker)
    }

    /// The classes the allow-list refuses in `archive` (none when it is accepted), as
    /// `checker.check` says.
    func refusedClasses(_ archive: KeyedArchive) -> [String] {
        guard !verdicts.accepts(archive) else { return [] }
        let signature = ClassVerdictCache.signature(of: archive, trustsArchiveHierarchy: options.allowList.trustsArchiveHierarchy)
        if let known = refusals.classes.withLock({ $0[signature] }) { return known }
        let refused = Array(Set(checker.check(archive).violations.map(\.readableClassName))).sorted()
        refusals.classes.withLock { $0[signature] = refused }
        return refused
    }

    /// Analyzes `data`, sniffed as a property list of `format`, or as a typedstream (`format`
    /// nil).
    ///
    /// - Parameters:
    ///   - strong: whether the head was unmistakable (`bplist`, `<plist`): a document that then
    ///     fails to read is reported as damaged; a weak one (OpenStep, JSON) is passed over as
    ///     the ordinary text it then is.
    ///   - nesting: how many documents hold this one.
    func analyze(_ data: Data, path: String, format: PropertyListFormat?, strong: Bool, nesting: Int = 0,
                 emit: (SweepItem) -> Void) {
        guard data.count <= options.maximumItemSize else {
            emit(.unreadable(path, format: format, size: data.count,
                             "\(data.count) bytes, over the per-item limit of \(options.maximumItemSize) (--max-input-size)"))
            return
        }
        guard let format else {
            if Bookmark.isBookmark(data) {
                emitBookmark(data, path: path, emit: emit)
                return
            }
            do {
                let archive = try KeyedArchive(data: data, options: options.readOptions)
                emitArchive(archive, path: path, format: nil, size: data.count, nesting: nesting, emit: emit)
            } catch {
                let what = NIBArchive.isNIBArchive(data) ? "compiled nib (NIBArchive)" : "NSArchiver typedstream"
                emit(.unreadable(path, size: data.count, "\(what) that does not read: \(error.description)"))
            }
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
            forEachDocument(in: value, nesting: nesting) { keyPath, inner, found in
                analyze(inner, path: SweepPath.nested(path, keyPath: keyPath), format: found.format, strong: found.strong,
                        nesting: nesting + 1, emit: emit)
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

    /// What a data value holds, when it is a document sweep reports: a binary or XML plist, an
    /// archive, or (with `includesJSON`) JSON. Only its first bytes are looked at.
    func nestedFormat(_ data: Data, nesting: Int) -> (format: PropertyListFormat?, strong: Bool)? {
        guard nesting < options.maximumNesting, data.count >= 8 else { return nil }
        // Most data is neither: a look at the first byte settles it before any copy.
        let first = data[data.startIndex]
        if first == 0x04, TypedStream.isTypedStream(data) { return (nil, true) }
        if first == UInt8(ascii: "N"), NIBArchive.isNIBArchive(data) { return (nil, true) }
        if first == UInt8(ascii: "b") || first == UInt8(ascii: "a"), Bookmark.isBookmark(data) { return (nil, true) }
        switch first {
        case UInt8(ascii: "b"), UInt8(ascii: "<"), 0xEF, 0xFE, 0xFF, 0x00, 0x20, 0x0A, 0x09, 0x0D: break
        case UInt8(ascii: "{") where options.includesJSON, UInt8(ascii: "[") where options.includesJSON: break
        default: return nil
        }
        guard case .propertyList(let format, let strong) = ItemSniffer.sniff(data.prefix(ItemSniffer.headSize), includesJSON: options.includesJSON),
              format != .openStep
        else { return nil }
        return (format, strong)
    }

    /// A top-level dictionary with `$archiver`, or with both `$top` and `$objects`: a keyed
    /// archive, or a damaged one (missing `$objects`, say) that must be reported as such rather
    /// than as the plain plist it still is.
    static func claimsToBeKeyedArchive(_ value: PropertyListValue) -> Bool {
        guard let dictionary = value.dictionaryValue else { return false }
        return dictionary["$archiver"] != nil || (dictionary["$top"] != nil && dictionary["$objects"] != nil)
    }

    /// The archive's record, then the documents inside its data objects.
    /// A typedstream (`archive.isTypedStream`) is refused whatever its classes: no secure
    /// unarchiver reads one; its refused classes are those a keyed archive of it would need.
    func emitArchive(_ archive: KeyedArchive, path: String, format: PropertyListFormat?, size: Int, nesting: Int,
                     emit: (SweepItem) -> Void) {
        let kind: SweepItemKind = archive.isTypedStream ? .typedStream : archive.isNIBArchive ? .nibArchive : .keyedArchive
        var item = SweepItem(path: path, kind: kind, format: format, size: size,
                             summary: rootSummary(archive), classes: Self.classes(of: archive))
        item.refusedClasses = refusedClasses(archive)
        item.verdict = item.refusedClasses.isEmpty && kind == .keyedArchive ? .accepted : .refused
        item.text = Self.text(of: archive)
        if let graphs { capture(archive, into: &item, budget: graphs) }
        emit(item)
        // Key paths are worked out only when a document is found in data.
        var paths: ArchiveKeyPaths?
        func keyPath(to uid: Int) -> String {
            if paths == nil { paths = ArchiveKeyPaths(archive) }
            return paths!.path(to: uid)
        }
        for object in archive.objects {
            guard let object else { continue }
            if case .data(let data) = object.content, let found = nestedFormat(data, nesting: nesting) {
                analyze(data, path: SweepPath.nested(path, keyPath: keyPath(to: object.uid)), format: found.format, strong: found.strong,
                        nesting: nesting + 1, emit: emit)
            }
            for field in object.fields {
                if case .inline(.data(let data)) = field.value, let found = nestedFormat(data, nesting: nesting) {
                    analyze(data, path: SweepPath.nested(path, keyPath: keyPath(to: object.uid) + SweepPath.keyStep(field.key)),
                            format: found.format, strong: found.strong, nesting: nesting + 1, emit: emit)
                }
            }
        }
    }

    /// The record of bookmark data: its target path, and in the summary the volume it is on and
    /// who made it. Bookmark data that does not read is reported as damaged.
    func emitBookmark(_ data: Data, path: String, emit: (SweepItem) -> Void) {
        let bookmark: Bookmark
        do {
            bookmark = try Bookmark(data: data, options: options.readOptions.bookmark)
        } catch {
            emit(.unreadable(path, size: data.count, "bookmark data that does not read: \(error.description)"))
            return
        }
        let fields = bookmark.fields
        var summary = "bookmark data → " + (fields.path ?? "no path")
        if let volume = fields.volumeName { summary += " on \(volume)" }
        if let user = fields.creatorUserName { summary += ", made by \(user)" }
        if fields.creationOptions?.withSecurityScope == true || !fields.securityExtensions.isEmpty { summary += ", security-scoped" }
        var item = SweepItem(path: path, kind: .bookmark, size: data.count, summary: Self.shortened(summary))
        item.target = fields.path
        emit(item)
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
        if archive.isTypedStream {
            // The stream's own objects, not the run tables its keyed form adds.
            return archive.sourceClassCounts.enumerated()
                .sorted { $0.element.count != $1.element.count ? $0.element.count > $1.element.count : $0.offset < $1.offset }
                .map { SweepClassCount(name: $0.element.name, count: $0.element.count) }
        }
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

    /// The whole text of a root that is an attributed string (or a string in one): what a
    /// Messages body says.
    static func text(of archive: KeyedArchive) -> String? {
        guard case .attributedString(let string, _, _)? = archive.rootObject?.content,
              case .string(let text)? = archive.object(string)?.content else { return nil }
        return text
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

    /// Calls `body` with the key path, bytes and format of every data value of a plain plist
    /// that holds a document. Iterative, so a deep tree costs no stack; key paths are written
    /// only for the documents found.
    func forEachDocument(in value: PropertyListValue, nesting: Int,
                         _ body: (String, Data, (format: PropertyListFormat?, strong: Bool)) -> Void) {
        if case .data(let data) = value, let found = nestedFormat(data, nesting: nesting) { body("root", data, found) }
        // Each frame is a collection being walked and the index of its next child.
        var frames: [(value: PropertyListValue, next: Int)] = []
        func children(_ value: PropertyListValue) -> Int? {
            switch value {
            case .array(let a), .set(let a): a.count
            case .dictionary(let d): d.count
            default: nil
            }
        }
        func child(_ value: PropertyListValue, _ index: Int) -> PropertyListValue {
            switch value {
            case .array(let a), .set(let a): a[index]
            case .dictionary(let d): d.values[index]
            default: .null
            }
        }
        func step(_ value: PropertyListValue, _ index: Int) -> String {
            if case .dictionary(let d) = value { return d.keys[index].stringValue.map(SweepPath.keyStep) ?? "[\(index)]" }
            return "[\(index)]"
        }
        guard let count = children(value), count > 0 else { return }
        frames.append((value, 0))
        while let top = frames.last {
            let index = frames.count - 1
            guard top.next < (children(top.value) ?? 0) else {
                frames.removeLast()
                continue
            }
            frames[index].next += 1
            let element = child(top.value, top.next)
            if case .data(let data) = element {
                if let found = nestedFormat(data, nesting: nesting) {
                    let path = "root" + frames.map { step($0.value, $0.next - 1) }.joined()
                    body(path, data, found)
                }
            } else if let count = children(element), count > 0 {
                frames.append((element, 0))
            }
        }
    }
}

/// The classes refused in each set of classes already checked.
final class RefusalCache: Sendable {
    let classes = Mutex<[String: [String]]>([:])
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
