import ArchivePayload
import Codegen
import Foundation
import KeyedArchive

/// What `archivist codegen` collects from a set of stored values: the shape their payloads
/// share, the classes their archives need beyond the secure defaults, and what was left out.
///
/// Each value is added as `StoredPayloadExtractor` extracts it, with the place it came from
/// (a row's key, a file's name), so that what is left out can be shown by its first example.
public struct PayloadCollection: Sendable {
    /// The shape so far.
    public private(set) var inferrer: PayloadShapeInferrer
    /// The classes beyond the secure defaults, which the transformer adds to them.
    public private(set) var classes = RequiredClasses(beyond: .transformerDefault)
    /// Keyed archives (and typedstreams) mapped.
    public private(set) var archives = 0
    /// JSON and property-list payloads read as they are stored, by kind.
    public private(set) var payloads: [StoredValueKind: Int] = [:]
    public private(set) var nulls = 0
    /// Values left out, by kind: how many, the first place that showed it, and why.
    public private(set) var leftOut: [StoredValueKind: LeftOut] = [:]
    /// The first value too deep to type.
    public private(set) var failure: Failure?

    /// Values of one kind left out.
    public struct LeftOut: Sendable {
        public var count: Int
        /// Where the first was: a row's key, a file's name.
        public var first: String
        public var reason: String
    }

    /// A value no type can decode, and where it was.
    public struct Failure: Sendable {
        public var place: String
        public var error: CodegenError
    }

    public init(encoding: PayloadEncoding) {
        inferrer = PayloadShapeInferrer(encoding: encoding)
    }

    /// Adds one value's payload, found at `place`.
    public mutating func add(_ outcome: StoredPayloadExtractor.Outcome, at place: String) {
        do throws(CodegenError) {
            switch outcome {
            case .archive(let payload, _), .payload(let payload, _): try inferrer.add(payload)
            case .null, .unusable: break
            }
        } catch {
            if failure == nil { failure = Failure(place: place, error: error) }
            return
        }
        switch outcome {
        case .archive(_, let archive):
            classes.add(archive)
            archives += 1
        case .payload(_, let kind):
            payloads[kind, default: 0] += 1
        case .null:
            nulls += 1
        case .unusable(let kind, let reason):
            leftOut[kind, default: LeftOut(count: 0, first: place, reason: reason)].count += 1
        }
    }

    /// Adds the payload of a file's bytes, as `classifier` and `extractor` find it. A file that
    /// holds nothing to take is no part of a collection of files: its reason comes back
    /// instead, and a file that holds null is passed over.
    public mutating func add(file data: Data, at place: String, classifier: StoredValueClassifier, extractor: StoredPayloadExtractor) -> String? {
        let outcome = extractor.extract(classifier.classify(data))
        switch outcome {
        case .unusable(_, let reason): return reason
        case .null: return nil
        default: add(outcome, at: place); return nil
        }
    }

    /// Puts the key column's name before the row keys the places were given as (`Z_PK 12`).
    public mutating func nameRows(by keyColumn: String) {
        if let failure { self.failure = Failure(place: "\(keyColumn) \(failure.place)", error: failure.error) }
        leftOut = leftOut.mapValues { LeftOut(count: $0.count, first: "\(keyColumn) \($0.first)", reason: $0.reason) }
    }

    /// `900 values (890 keyed archives, 10 JSON), 100 NULL`.
    public var summary: String {
        var parts: [String] = []
        if archives > 0 { parts.append("\(archives) keyed archive\(archives == 1 ? "" : "s")") }
        for (kind, count) in payloads.sorted(by: { $0.key < $1.key }) {
            parts.append("\(count) \(kind.label)\(kind == .propertyList && count != 1 ? "s" : "")")
        }
        var text = "\(inferrer.valueCount) value\(inferrer.valueCount == 1 ? "" : "s")"
        if !parts.isEmpty { text += " (" + parts.joined(separator: ", ") + ")" }
        if nulls > 0 { text += ", \(nulls) NULL" }
        let left = leftOut.values.reduce(0) { $0 + $1.count }
        if left > 0 { text += ", \(left) left out" }
        return text
    }
}

extension AttributeValueReader {
    /// Every value of `attribute` in the store at `path`, its payload as `extractor` extracts
    /// it, collected for `encoding`; rows are named by the table's own key (`Z_PK 2` in a Core
    /// Data store, `id 2` in a plain table).
    ///
    /// - Returns: the collection, and where the attribute was found.
    /// - Throws: `StoreError` as `read(path:attribute:_:)` throws it.
    public func collectPayloads(path: String, attribute: String, extractor: StoredPayloadExtractor,
                                encoding: PayloadEncoding) throws(StoreError) -> (payloads: PayloadCollection, location: AttributeLocation) {
        var collection = PayloadCollection(encoding: encoding)
        let location = try read(path: path, attribute: attribute) { key, value in
            collection.add(extractor.extract(value), at: String(key))
        }
        let table = location.table
        collection.nameRows(by: table.hasRowID || table.keyColumn != "rowid" ? table.keyColumn : "row")
        return (collection, location)
    }
}
