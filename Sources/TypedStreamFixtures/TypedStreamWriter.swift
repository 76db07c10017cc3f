import Foundation

/// A small NSArchiver writer for tests and benchmarks: Archivist never writes typedstreams, but
/// its tests need streams Apple's archiver would write (and some it would not), built value by
/// value.
///
/// It follows NeXT's typedstream.m: integers in the compact encoding (the value itself from -110
/// to 127, else a 2- or 4-byte tag), reals as integers when integral, shared strings and
/// objects, classes and C strings numbered from -110 in the order they are introduced.
public struct TypedStreamWriter {
    public let byteOrder: Order
    var bytes: [UInt8] = []
    var sharedStrings: [String: Int] = [:]
    var references: [ObjectIdentifier: Int] = [:]
    var classNumbers: [String: Int] = [:]
    var cStrings: [String: Int] = [:]
    var nextShared = 0
    var nextReference = 0
    /// Objects kept alive while written, so that no identifier is reused for another object.
    var written: [TypedStreamObjectSpec] = []

    public enum Order: Sendable { case big, little }

    public init(byteOrder: Order = .little, systemVersion: Int = 1000, streamerVersion: UInt8 = 4) {
        self.byteOrder = byteOrder
        bytes.append(streamerVersion)
        bytes.append(11)
        bytes.append(contentsOf: Array((byteOrder == .big ? "typedstream" : "streamtyped").utf8))
        writeInteger(Int64(systemVersion))
    }

    /// The stream written so far.
    public var data: Data { Data(bytes) }

    /// Writes one top-level group: its encoding, then its values.
    public mutating func writeGroup(_ encoding: String, _ values: [TypedStreamValueSpec]) {
        writeSharedString(encoding)
        for value in values { write(value) }
    }

    /// Writes `object` as `+[NSArchiver archivedDataWithRootObject:]` does: one `@` group.
    public mutating func writeRoot(_ object: TypedStreamObjectSpec) {
        writeGroup("@", [.object(object)])
    }

    /// Appends raw bytes, for streams no archiver would write.
    public mutating func writeRaw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    // MARK: Encodings

    mutating func writeFixed(_ value: UInt64, _ count: Int) {
        if byteOrder == .big {
            for i in (0..<count).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
        } else {
            for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
        }
    }

    /// The compact integer encoding of typedstream.m's `_NXEncodeInt`.
    public mutating func writeInteger(_ value: Int64) {
        if value >= -110, value <= 127 {
            bytes.append(UInt8(bitPattern: Int8(value)))
        } else if value >= -32767, value <= 32767 {
            bytes.append(0x81)
            writeFixed(UInt64(UInt16(bitPattern: Int16(value))), 2)
        } else if value >= Int64(Int32.min) + 1, value <= Int64(Int32.max) {
            bytes.append(0x82)
            writeFixed(UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: value))), 4)
        } else {
            // Beyond 32 bits: Foundation's tag 0x87 and eight bytes.
            bytes.append(0x87)
            writeFixed(UInt64(bitPattern: value), 8)
        }
    }

    mutating func writeFloat(_ value: Float) {
        if value.isFinite, value.rounded(.towardZero) == value, abs(Double(value)) < 2_147_483_646 {
            writeInteger(Int64(value))
        } else {
            bytes.append(0x83)
            writeFixed(UInt64(value.bitPattern), 4)
        }
    }

    mutating func writeDouble(_ value: Double) {
        if value.isFinite, value.rounded(.towardZero) == value, abs(value) < 2_147_483_646 {
            writeInteger(Int64(value))
        } else {
            bytes.append(0x83)
            writeFixed(value.bitPattern, 8)
        }
    }

    mutating func writeUnsharedString(_ raw: [UInt8]?) {
        guard let raw else { bytes.append(0x85); return }
        writeInteger(Int64(raw.count))
        bytes.append(contentsOf: raw)
    }

    mutating func writeSharedString(_ string: String?) {
        guard let string else { bytes.append(0x85); return }
        if let number = sharedStrings[string] {
            writeInteger(Int64(number) - 110)
            return
        }
        bytes.append(0x84)
        writeUnsharedString(Array(string.utf8))
        sharedStrings[string] = nextShared
        nextShared += 1
    }

    mutating func writeClass(_ chain: [(name: String, version: Int)]) {
        for (i, entry) in chain.enumerated() {
            if let number = classNumbers[entry.name] {
                writeInteger(Int64(number) - 110)
                return
            }
            bytes.append(0x84)
            writeSharedString(entry.name)
            writeInteger(Int64(entry.version))
            classNumbers[entry.name] = nextReference
            nextReference += 1
            if i == chain.count - 1 { bytes.append(0x85) }
        }
        if chain.isEmpty { bytes.append(0x85) }
    }

    mutating func writeObject(_ object: TypedStreamObjectSpec?) {
        guard let object else { bytes.append(0x85); return }
        if let number = references[ObjectIdentifier(object)] {
            writeInteger(Int64(number) - 110)
            return
        }
        bytes.append(0x84)
        references[ObjectIdentifier(object)] = nextReference
        nextReference += 1
        written.append(object)
        writeClass(object.classChain)
        for group in object.groups { writeGroup(group.encoding, group.values) }
        bytes.append(0x86)
    }

    mutating func write(_ value: TypedStreamValueSpec) {
        switch value {
        case .char(let v): bytes.append(UInt8(bitPattern: v))
        case .unsignedChar(let v): bytes.append(v)
        case .integer(let v): writeInteger(v)
        case .float(let v): writeFloat(v)
        case .double(let v): writeDouble(v)
        case .unsharedString(let raw): writeUnsharedString(raw)
        case .sharedString(let s): writeSharedString(s)
        case .cString(let s):
            guard let s else { bytes.append(0x85); return }
            if let number = cStrings[s] {
                writeInteger(Int64(number) - 110)
                return
            }
            bytes.append(0x84)
            writeSharedString(s)
            cStrings[s] = nextReference
            nextReference += 1
        case .classObject(let chain): writeClass(chain)
        case .object(let object): writeObject(object)
        case .bytes(let raw): bytes.append(contentsOf: raw)
        case .sequence(let values): for v in values { write(v) }
        }
    }
}

/// A value for `TypedStreamWriter`, written as its type code says.
public enum TypedStreamValueSpec {
    /// `c`: one raw byte.
    case char(Int8)
    /// `C`: one raw byte.
    case unsignedChar(UInt8)
    /// `s i l q` and their unsigned forms: the compact integer encoding.
    case integer(Int64)
    /// `f`
    case float(Float)
    /// `d`
    case double(Double)
    /// `+`: a length and bytes, or nil.
    case unsharedString([UInt8]?)
    /// `:` and `%`: a shared string.
    case sharedString(String?)
    /// `*`: a C string, shared like objects.
    case cString(String?)
    /// `#`: a class chain, most derived first.
    case classObject([(name: String, version: Int)])
    /// `@`
    case object(TypedStreamObjectSpec?)
    /// Raw bytes: the elements of `[n c]`, a union.
    case bytes([UInt8])
    /// Several values one after another: an array's elements, a struct's fields.
    case sequence([TypedStreamValueSpec])
}

/// An object for `TypedStreamWriter`: its class chain with versions and the groups its
/// `-encodeWithCoder:` writes. Objects are shared by identity: the same instance written twice is
/// written once and referred to after.
public final class TypedStreamObjectSpec {
    public var classChain: [(name: String, version: Int)]
    public var groups: [(encoding: String, values: [TypedStreamValueSpec])]

    public init(_ classChain: [(name: String, version: Int)], groups: [(encoding: String, values: [TypedStreamValueSpec])] = []) {
        self.classChain = classChain
        self.groups = groups
    }
}
