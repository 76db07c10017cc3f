import Foundation

/// What an element of `$objects` is, as the flat scan found it.
package enum FlatElementKind: UInt8, Sendable {
    /// A dictionary, kept as entries.
    case dictionary
    /// A string (ASCII, UTF-8 in an ASCII string, or valid UTF-16).
    case string
    /// An integer, real or bool.
    case number
    case data
    case date
    /// Anything else: a UID, the null marker, a UTF-16 string kept with its lone surrogates.
    case other
}

extension FlatElementKind {
    /// The kind of an element read as a value.
    init(_ value: PropertyListValue) {
        switch value {
        case .string: self = .string
        case .integer, .real, .bool: self = .number
        case .data: self = .data
        case .date: self = .date
        default: self = .other
        }
    }
}

/// The elements of `$objects`: dictionaries as runs of `entries`, the others as values.
///
/// Read with values (`readFlatKeyedArchive(_:keepingValues: true)`), every element and every
/// scalar an entry holds is read, as the reader reads it. Without (what an allow-list check
/// needs), only the kind of each element is kept, and scalars are read from the file when
/// asked for: a table of a million objects then takes a few bytes each.
package struct FlatObjectTable: Sendable {
    /// Per object: its kind. A dictionary's entries are `entries[entryStart[i]..<entryStart[i + 1]]`.
    package var kinds: [FlatElementKind]
    /// Per object, when read with values: its value, `.null` standing in for a dictionary.
    /// Empty otherwise.
    package var values: [PropertyListValue]
    /// `count + 1` offsets into `entries`.
    package var entryStart: [Int32]
    package var entries: [FlatEntry]
    /// The distinct dictionary keys, which entries name by index.
    package var keys: [PropertyListValue]
    /// The elements of `.uids` entries. (A UID of 2^32 or more, which no `$objects` can hold,
    /// sends the archive to the ordinary reader.)
    package var uids: [UInt32]
    /// The values of `.value` entries: with values, every value that is not a UID or a UID
    /// array; without, the collections among them (rare).
    package var others: [PropertyListValue]
    /// Where scalars are read from.
    package var scalars: FlatScalarReader

    package var count: Int { kinds.count }

    /// Object `index` as the reader gives it: dictionaries are rebuilt from their entries.
    package func value(_ index: Int) -> PropertyListValue {
        guard kinds[index] == .dictionary else { return values.isEmpty ? scalars.element(index) : values[index] }
        return Self.dictionary(index, entryStart: entryStart, entries: entries, keys: keys, value: value(of:))
    }

    /// Dictionary `index` of a table's parts, rebuilt from its entries, each value as `value`
    /// gives it: for the table, and for the keyed-archive layer, which keeps the parts and
    /// reads the entries' scalars its own way.
    package static func dictionary(_ index: Int, entryStart: [Int32], entries: [FlatEntry], keys: [PropertyListValue],
                                   value: (FlatEntry) -> PropertyListValue) -> PropertyListValue {
        let range = Int(entryStart[index])..<Int(entryStart[index + 1])
        var dictionaryKeys: [PropertyListValue] = []
        var values: [PropertyListValue] = []
        dictionaryKeys.reserveCapacity(range.count)
        values.reserveCapacity(range.count)
        for i in range {
            dictionaryKeys.append(keys[Int(entries[i].key)])
            values.append(value(entries[i]))
        }
        return .dictionary(PropertyListDictionary(keys: dictionaryKeys, values: values))
    }

    /// An entry's value as the reader gives it.
    package func value(of entry: FlatEntry) -> PropertyListValue {
        switch entry.kind {
        case .uid: .uid(entry.payload)
        case .uids: .array(uids[entry.uidRange].map { .uid(UInt64($0)) })
        case .scalar: scalars.object(Int(truncatingIfNeeded: entry.payload))
        case .value: others[Int(entry.payload)]
        }
    }
}

/// Reads the scalars of a binary archive's `$objects` from its bytes, when asked for. The flat
/// scan has checked every one of them as the reader does, so reading them cannot fail.
package struct FlatScalarReader: Sendable {
    let data: Data
    let options: PropertyListReadOptions
    let trailer: BinaryPropertyListTrailer
    /// The byte offset of `$objects`' first reference.
    let elementRefs: Int

    /// Element `index` of `$objects`, which is not a dictionary.
    package func element(_ index: Int) -> PropertyListValue {
        data.withUnsafeBytes { raw in
            guard var parser = BinaryPropertyListParser(validated: raw, options: options, trailer: trailer) else { return .null }
            return parser.scalar(parser.ref(elementRefs + index * trailer.objectRefSize))
        }
    }

    /// Object `index` of the file, a scalar.
    package func object(_ index: Int) -> PropertyListValue {
        data.withUnsafeBytes { raw in
            guard var parser = BinaryPropertyListParser(validated: raw, options: options, trailer: trailer) else { return .null }
            return parser.scalar(index)
        }
    }

    /// Runs `body` with one `Cursor` for all the scalars it reads: a decoder that reads a
    /// million of them then sets up one parser instead of one per scalar. The cursor borrows
    /// the bytes and must not be used after `body` returns.
    package func withCursor<R, E: Error>(_ body: (inout Cursor) throws(E) -> R) throws(E) -> R {
        try data.withUnsafeBytesTyped { raw throws(E) in
            var cursor = Cursor(parser: BinaryPropertyListParser(validated: raw, options: options, trailer: trailer), elementRefs: elementRefs)
            return try body(&cursor)
        }
    }

    /// Reads scalars as `element(_:)` and `object(_:)` do, with one parser (see `withCursor`).
    package struct Cursor {
        var parser: BinaryPropertyListParser?
        let elementRefs: Int

        /// Element `index` of `$objects`, which is not a dictionary.
        package mutating func element(_ index: Int) -> PropertyListValue {
            guard let refSize = parser?.trailer.objectRefSize, let ref = parser?.ref(elementRefs + index * refSize) else { return .null }
            return parser?.scalar(ref) ?? .null
        }

        /// Object `index` of the file, a scalar.
        package mutating func object(_ index: Int) -> PropertyListValue {
            parser?.scalar(index) ?? .null
        }

        /// The file's object index of element `index` of `$objects`.
        package func objectIndex(ofElement index: Int) -> Int? {
            guard let parser else { return nil }
            return parser.ref(elementRefs + index * parser.trailer.objectRefSize)
        }

        /// Calls `body` with the UTF-8 of string object `index` of the file without making a
        /// `String`: an ASCII string's bytes where they are (UTF-8 in an ASCII string too, which
        /// the flat scan found valid), UTF-16 transcoded into `scratch`. Nil, without calling
        /// `body`, for anything else (a UTF-16 string with a lone surrogate included).
        package func withUTF8<R>(ofObject index: Int, scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
            guard let parser else { return nil }
            return parser.withStringUTF8(index, scratch: &scratch, body)
        }

        /// The bytes of data object `index` of the file, where they are, for `body`; nil for
        /// anything else.
        package func withBytes<R>(ofObject index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
            guard let parser else { return nil }
            return parser.withDataBytes(index, body)
        }
    }
}
