/// A binary property list taken apart into its objects, so that mutations can change one object,
/// one reference or the widths, and lay the file out again.
///
/// Written for the harness, apart from Archivist's reader on purpose: it parses only what a
/// mutation needs (markers, lengths, references) and refuses anything unusual rather than
/// guessing, so files it cannot take apart get only byte-level mutations.
struct BinaryLayout {
    enum Object: Equatable {
        /// A scalar's whole encoding, marker included.
        case scalar([UInt8])
        /// An array (0xA), set (0xC) or dictionary (0xD): the high nibble of the marker and the
        /// references (a dictionary's keys, then its values).
        case collection(kind: UInt8, refs: [Int])
    }

    var header: [UInt8]
    var objects: [Object]
    var top: Int
    /// The five unused trailer bytes and the sort version, kept as they were.
    var trailerPrefix: [UInt8]

    /// Takes `bytes` apart; nil when they are not a binary plist this simple parser can follow.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let refSize = Int(bytes[trailer + 7])
        func int(_ at: Int, _ width: Int) -> Int? {
            guard width >= 1, width <= 8, at >= 0, at + width <= bytes.count else { return nil }
            var v: UInt64 = 0
            for i in 0..<width { v = v << 8 | UInt64(bytes[at + i]) }
            return v > UInt64(Int.max) ? nil : Int(v)
        }
        guard let count = int(trailer + 8, 8), let top = int(trailer + 16, 8), let table = int(trailer + 24, 8),
              offsetSize >= 1, offsetSize <= 8, refSize >= 1, refSize <= 8, count >= 1, count <= 1 << 20,
              top < count, table >= 9, table + count * offsetSize == trailer
        else { return nil }
        var objects: [Object] = []
        objects.reserveCapacity(count)
        for i in 0..<count {
            guard let offset = int(table + i * offsetSize, offsetSize), offset >= 8, offset < table else { return nil }
            let marker = bytes[offset]
            let high = marker >> 4, low = Int(marker & 0x0F)
            // The count of a string, data or collection: the low nibble, or an int that follows.
            func length() -> (count: Int, start: Int)? {
                if low != 0x0F { return (low, offset + 1) }
                guard offset + 1 < table, bytes[offset + 1] >> 4 == 1 else { return nil }
                let width = 1 << Int(bytes[offset + 1] & 0x0F)
                guard width <= 8, let n = int(offset + 2, width) else { return nil }
                return (n, offset + 2 + width)
            }
            switch high {
            case 0x0:
                guard marker == 0x00 || marker == 0x08 || marker == 0x09 else { return nil }
                objects.append(.scalar([marker]))
            case 0x1, 0x2, 0x3, 0x8:
                let size: Int
                switch high {
                case 0x1: size = 1 << low
                case 0x2: size = 1 << low
                case 0x3: size = 8
                default: size = low + 1
                }
                guard size <= 16, offset + 1 + size <= table else { return nil }
                objects.append(.scalar(Array(bytes[offset..<(offset + 1 + size)])))
            case 0x4, 0x5, 0x6:
                guard let (n, start) = length() else { return nil }
                let size = high == 0x6 ? n * 2 : n
                guard n <= table, start + size <= table else { return nil }
                objects.append(.scalar(Array(bytes[offset..<(start + size)])))
            case 0xA, 0xC, 0xD:
                guard let (n, start) = length() else { return nil }
                let refCount = high == 0xD ? n * 2 : n
                guard refCount <= count * 2 + 16, start + refCount * refSize <= table else { return nil }
                var refs: [Int] = []
                for r in 0..<refCount {
                    guard let ref = int(start + r * refSize, refSize), ref < count else { return nil }
                    refs.append(ref)
                }
                objects.append(.collection(kind: high, refs: refs))
            default:
                return nil
            }
        }
        header = Array(bytes[0..<8])
        self.objects = objects
        self.top = top
        trailerPrefix = Array(bytes[trailer..<(trailer + 6)])
    }

    /// The smallest width that holds `value` (1, 2, 4 or 8 bytes, as CF writes counts).
    static func intWidth(_ value: Int) -> Int {
        value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : value < 1 << 32 ? 4 : 8
    }

    /// The smallest width of any size that holds `value` (offsets and references).
    static func byteCount(_ value: Int) -> Int {
        var n = 1
        while n < 8, value >= 1 << (8 * n) { n += 1 }
        return n
    }

    /// Appends `value` as a big-endian integer of `width` bytes.
    static func append(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        for i in stride(from: width - 1, through: 0, by: -1) {
            out.append(i >= 8 ? 0 : UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))))
        }
    }

    /// A count as CF writes it after a marker: in the low nibble below 15, else as an int object.
    static func marker(_ high: UInt8, count: Int, into out: inout [UInt8], forceExtended: Bool = false, countWidth: Int? = nil) {
        if count < 15, !forceExtended {
            out.append(high << 4 | UInt8(count))
            return
        }
        out.append(high << 4 | 0x0F)
        let width = countWidth ?? intWidth(count)
        let exponent = UInt8(width.trailingZeroBitCount)
        out.append(0x10 | exponent)
        append(UInt64(count), width: width, to: &out)
    }

    /// Lays the objects out again, in their order, with the given widths (by default the
    /// smallest that fit, as CF chooses them).
    func write(offsetSize: Int? = nil, refSize: Int? = nil, topOverride: Int? = nil, countOverride: Int? = nil) -> [UInt8] {
        let refWidth = refSize ?? Self.byteCount(max(objects.count - 1, 0))
        var out = header
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            switch object {
            case .scalar(let bytes):
                out.append(contentsOf: bytes)
            case .collection(let kind, let refs):
                Self.marker(kind, count: kind == 0xD ? refs.count / 2 : refs.count, into: &out)
                for r in refs { Self.append(UInt64(r), width: refWidth, to: &out) }
            }
        }
        let tableOffset = out.count
        let offsetWidth = offsetSize ?? Self.byteCount(tableOffset)
        for o in offsets { Self.append(UInt64(o), width: offsetWidth, to: &out) }
        out.append(contentsOf: trailerPrefix)
        out.append(UInt8(offsetWidth))
        out.append(UInt8(refWidth))
        Self.append(UInt64(countOverride ?? objects.count), width: 8, to: &out)
        Self.append(UInt64(topOverride ?? top), width: 8, to: &out)
        Self.append(UInt64(tableOffset), width: 8, to: &out)
        return out
    }
}
