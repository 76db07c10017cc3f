import Foundation
import PropertyList

/// Sweep records and the summary as JSON values: the schema of `sweep --format jsonl` and
/// `--format json` (documented in docs/sweep.md, "The sweep record").
extension SweepItem {
    /// The record: `path`, `kind`, `format` (null for databases) and `size` always; `summary`
    /// when there is one; `classes`, `verdict` and `refusedClasses` for archives (keyed and
    /// typedstreams and compiled nibs), and `text` for those whose root is a string or an
    /// attributed string; `target` for bookmark data (the path it points to); `attributes` for
    /// databases; `error` for unreadable items. The graph is not part of it.
    public var jsonValue: PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "path", value: .string(path))
        d.append(key: "kind", value: .string(kind.rawValue))
        d.append(key: "format", value: format.map { .string($0.rawValue) } ?? .null)
        d.append(key: "size", value: .integer(PropertyListInteger(size)))
        if let summary { d.append(key: "summary", value: .string(summary)) }
        if kind == .keyedArchive || kind == .typedStream || kind == .nibArchive {
            d.append(key: "classes", value: .dictionary(PropertyListDictionary(classes.map { (.string($0.name), .integer(PropertyListInteger($0.count))) })))
            if let verdict { d.append(key: "verdict", value: .string(verdict.rawValue)) }
            if verdict == .refused { d.append(key: "refusedClasses", value: .array(refusedClasses.map { .string($0) })) }
            if let text { d.append(key: "text", value: .string(text)) }
        }
        if kind == .bookmark { d.append(key: "target", value: target.map { .string($0) } ?? .null) }
        if kind == .coreDataStore || kind == .sqlite {
            d.append(key: "attributes", value: .array(attributes.map(\.jsonValue)))
        }
        if let error { d.append(key: "error", value: .string(error)) }
        if let graphOmitted { d.append(key: "graphOmitted", value: .string(graphOmitted)) }
        return .dictionary(d)
    }
}

extension SweepAttribute {
    public var jsonValue: PropertyListValue {
        func counts(_ counts: [String: Int]) -> PropertyListValue {
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            return .dictionary(PropertyListDictionary(sorted.map { (.string($0.key), .integer(PropertyListInteger($0.value))) }))
        }
        var d = PropertyListDictionary()
        d.append(key: "attribute", value: .string(name))
        d.append(key: "table", value: .string(table))
        d.append(key: "column", value: .string(column))
        d.append(key: "rows", value: .integer(PropertyListInteger(rows)))
        d.append(key: "kinds", value: counts(kinds))
        d.append(key: "classes", value: counts(classes))
        d.append(key: "accepted", value: .integer(PropertyListInteger(accepted)))
        d.append(key: "refused", value: .integer(PropertyListInteger(refused)))
        d.append(key: "suggestedAdditions", value: .array(suggestedAdditions.map { .string($0) }))
        d.append(key: "judgedBy", value: judgedBy.map { .string($0) } ?? .null)
        d.append(key: "basis", value: .string(basis))
        return .dictionary(d)
    }
}

extension SweepSummary {
    /// `items`, then counts `byKind` (every kind, zeros included), `byFormat`, `byClass`
    /// (archives holding each class, most first), `byVerdict`, `errors`, and what was looked at.
    public var jsonValue: PropertyListValue {
        func integer(_ n: Int) -> PropertyListValue { .integer(PropertyListInteger(n)) }
        var d = PropertyListDictionary()
        d.append(key: "items", value: integer(items))
        d.append(key: "byKind", value: .dictionary(PropertyListDictionary(SweepItemKind.allCases.map { (.string($0.rawValue), integer(byKind[$0] ?? 0)) })))
        d.append(key: "byFormat", value: .dictionary(PropertyListDictionary(PropertyListFormat.allCases.compactMap { format in
            byFormat[format].map { (.string(format.rawValue), integer($0)) }
        })))
        d.append(key: "byClass", value: .dictionary(PropertyListDictionary(classCounts.map { (.string($0.name), integer($0.count)) })))
        d.append(key: "byVerdict", value: .dictionary(PropertyListDictionary(SweepVerdict.allCases.map { (.string($0.rawValue), integer(byVerdict[$0] ?? 0)) })))
        d.append(key: "errors", value: integer(errors))
        d.append(key: "examined", value: integer(examined))
        d.append(key: "examinedBytes", value: .integer(PropertyListInteger(examinedBytes)))
        d.append(key: "containers", value: integer(containers))
        d.append(key: "skipped", value: integer(skipped))
        d.append(key: "seconds", value: .real((seconds * 1000).rounded() / 1000))
        return .dictionary(d)
    }
}

enum SweepJSON {
    /// Compact JSON, slashes unescaped (paths are full of them).
    static let compact: JSONPropertyListWriter = {
        var options = JSONWriteOptions()
        options.outputFormatting = [.withoutEscapingSlashes]
        return JSONPropertyListWriter(options: options)
    }()

    static let pretty: JSONPropertyListWriter = {
        var options = JSONWriteOptions()
        options.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return JSONPropertyListWriter(options: options)
    }()

    /// The value's JSON. Every value here has string keys and finite numbers, which the writer
    /// always takes; a refusal would be a bug, written as a record the reader can see.
    static func write(_ value: PropertyListValue, pretty: Bool = false) -> Data {
        do {
            return try (pretty ? Self.pretty : Self.compact).write(value)
        } catch {
            return Data("{\"error\":\"cannot write this record as JSON\"}".utf8)
        }
    }
}
