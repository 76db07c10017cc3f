import PropertyList

/// A `TypedStreamValueTable.Entry` as the table keeps it: 24 bytes rather than 48, positions in
/// the input and in the table's lists as 32-bit numbers, a number without its property-list
/// boxing, and the lengths the reader's layout implies left out (a dictionary's values follow
/// its keys; a color's kind says how many components it has). A table of a large stream holds
/// one per object.
enum TypedStreamStoredEntry {
    case pending
    case string(start: UInt32, count: UInt32)
    case mutableString(classIndex: Int32, start: UInt32, count: UInt32)
    case number(TypedStreamNumber)
    case date(classIndex: Int32, Double)
    case data(start: UInt32, count: UInt32)
    case mutableData(classIndex: Int32, start: UInt32, count: UInt32)
    case array(classIndex: Int32, start: UInt32, count: UInt32)
    /// `count` keys from `start`, then as many values.
    case dictionary(classIndex: Int32, start: UInt32, count: UInt32)
    case color(classIndex: Int32, kind: Int8, start: UInt32)

    typealias Entry = TypedStreamValueTable.Entry

    /// `entry` kept, or nil when a position or index does not fit (an input of 4 GB or more,
    /// a class or list beyond 2^31) or a dictionary's values do not follow its keys. A number
    /// is kept as the reader reads it (`.number(TypedStreamNumber)`), never from an entry.
    init?(_ entry: Entry) {
        func span(_ range: Range<Int>) -> (UInt32, UInt32)? {
            guard let start = UInt32(exactly: range.lowerBound), let count = UInt32(exactly: range.count) else { return nil }
            return (start, count)
        }
        /// A class's index and a span, as a stored entry of that class takes them.
        func classSpan(_ classIndex: Int, _ range: Range<Int>, _ make: (Int32, UInt32, UInt32) -> Self) -> Self? {
            guard let index = Int32(exactly: classIndex), let (start, count) = span(range) else { return nil }
            return make(index, start, count)
        }
        let kept: Self?
        switch entry {
        case .pending: kept = .pending
        case .number: kept = nil
        case .string(let range): kept = span(range).map { .string(start: $0.0, count: $0.1) }
        case .data(let range): kept = span(range).map { .data(start: $0.0, count: $0.1) }
        case .mutableString(let classIndex, let range): kept = classSpan(classIndex, range) { .mutableString(classIndex: $0, start: $1, count: $2) }
        case .mutableData(let classIndex, let range): kept = classSpan(classIndex, range) { .mutableData(classIndex: $0, start: $1, count: $2) }
        case .array(let classIndex, let range): kept = classSpan(classIndex, range) { .array(classIndex: $0, start: $1, count: $2) }
        case .dictionary(let classIndex, let keys, let values):
            guard values.lowerBound == keys.upperBound, values.count == keys.count else { return nil }
            kept = classSpan(classIndex, keys) { .dictionary(classIndex: $0, start: $1, count: $2) }
        case .date(let classIndex, let seconds):
            kept = Int32(exactly: classIndex).map { .date(classIndex: $0, seconds) }
        case .color(let classIndex, let kind, let components):
            guard let index = Int32(exactly: classIndex), let kindByte = Int8(exactly: kind), let start = UInt32(exactly: components.lowerBound),
                  components.count == TypedStreamValueTable.colorComponentCount(kind: kind) else { return nil }
            kept = .color(classIndex: index, kind: kindByte, start: start)
        }
        guard let kept else { return nil }
        self = kept
    }

    /// The entry it keeps.
    var entry: Entry {
        @inline(__always) func range(_ start: UInt32, _ count: UInt32) -> Range<Int> { Int(start) ..< Int(start) + Int(count) }
        switch self {
        case .pending: return .pending
        case .string(let start, let count): return .string(range(start, count))
        case .mutableString(let index, let start, let count): return .mutableString(classIndex: Int(index), range(start, count))
        case .number(let number): return .number(number.value)
        case .date(let index, let seconds): return .date(classIndex: Int(index), seconds)
        case .data(let start, let count): return .data(range(start, count))
        case .mutableData(let index, let start, let count): return .mutableData(classIndex: Int(index), range(start, count))
        case .array(let index, let start, let count): return .array(classIndex: Int(index), range(start, count))
        case .dictionary(let index, let start, let count):
            return .dictionary(classIndex: Int(index), keys: range(start, count), values: range(start + count, count))
        case .color(let index, let kind, let start):
            let count = TypedStreamValueTable.colorComponentCount(kind: Int64(kind))
            return .color(classIndex: Int(index), kind: Int64(kind), components: Int(start) ..< Int(start) + count)
        }
    }
}

/// An NSNumber's scalar as read, without the property-list value's boxing.
enum TypedStreamNumber {
    case bool(Bool)
    case signed(Int64)
    case unsigned(UInt64)
    case real(Double)

    var value: PropertyListValue {
        switch self {
        case .bool(let b): .bool(b)
        case .signed(let i): .integer(PropertyListInteger(i))
        case .unsigned(let u): .integer(PropertyListInteger(u))
        case .real(let r): .real(r)
        }
    }
}
