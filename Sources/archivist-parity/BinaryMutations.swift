import FixtureSupport

/// Structured mutations of a binary property list: its header, trailer fields, widths, markers,
/// integers, UIDs, strings and lengths, references and offsets.
struct BinaryMutations {
    var bytes: [UInt8]
    var random: ParityRandom
    var out: [(name: String, bytes: [UInt8])] = []

    init(_ bytes: [UInt8], random: ParityRandom) {
        self.bytes = bytes
        self.random = random
    }

    private mutating func add(_ name: String, _ bytes: [UInt8]) { out.append((name, bytes)) }

    /// Every mutation; fewer for big files, whose inputs cost more than they add.
    mutating func all() -> [(name: String, bytes: [UInt8])] {
        header()
        trailer()
        truncations()
        guard bytes.count <= 1 << 16 else { return out }
        offsets()
        if let layout = BinaryLayout(bytes) {
            widths(layout)
            objects(layout)
            references(layout)
        }
        return out
    }

    // MARK: - Bytes in place

    private mutating func header() {
        for (name, suffix) in [("01", "01"), ("0x", "0x"), ("0space", "0 "), ("10", "10"), ("15", "15"), ("1x", "1?"), ("09", "09")] {
            var b = bytes
            guard b.count >= 8 else { return }
            let s = Array(suffix.utf8)
            b[6] = s[0]
            b[7] = s[1]
            add("binary.header=bplist\(name)", b)
        }
        for v: UInt8 in [0x00, 0x7F, 0xFF] {
            var b = bytes
            b[7] = v
            add("binary.header.version7=0x\(hex(v))", b)
        }
        var upper = bytes
        for i in 0..<6 { upper[i] &= 0xDF }
        add("binary.header=BPLIST", upper)
    }

    private mutating func trailer() {
        guard bytes.count >= 40 else { return }
        let t = bytes.count - 32
        // The five unused bytes and the sort version.
        for i in 0..<6 {
            var b = bytes
            b[t + i] = 0x01
            add("binary.trailer.unused\(i)=1", b)
        }
        // The widths, changed without laying the file out again.
        for (field, at) in [("offsetIntSize", 6), ("objectRefSize", 7)] {
            for v: UInt8 in [0, 1, 2, 3, 4, 8, 9, 16, 0xFF] where v != bytes[t + at] {
                var b = bytes
                b[t + at] = v
                add("binary.trailer.\(field)=\(v)", b)
            }
        }
        // The three 8-byte fields.
        func field(_ at: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<8 { v = v << 8 | UInt64(bytes[t + at + i]) }
            return v
        }
        for (name, at) in [("numObjects", 8), ("topObject", 16), ("offsetTableOffset", 24)] {
            let current = field(at)
            var values: [UInt64] = [0, 1, 8, 9, current &+ 1, current &- 1, UInt64(Int64.max), UInt64.max, 1 << 63, 1 << 32]
            if name == "topObject" { values += [field(8) &- 1, field(8)] }
            var seen = Set<UInt64>()
            for v in values where v != current && seen.insert(v).inserted {
                var b = bytes
                for i in 0..<8 { b[t + at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(7 - i))) }
                add("binary.trailer.\(name)=\(v)", b)
            }
        }
    }

    private mutating func truncations() {
        let n = bytes.count
        for cut in Set([1, 7, 8, 9, 31, 32, 33, n / 2]) where cut < n && cut > 0 {
            add("binary.truncate=\(cut)", Array(bytes.prefix(n - cut)))
        }
        add("binary.append=00", bytes + [0])
        add("binary.prepend=00", [0] + bytes)
    }

    /// Offset-table entries pointed elsewhere.
    private mutating func offsets() {
        guard bytes.count >= 40 else { return }
        let t = bytes.count - 32
        let width = Int(bytes[t + 6])
        var count = 0, table = 0
        for i in 0..<8 { count = count << 8 | Int(bytes[t + 8 + i]); table = table << 8 | Int(bytes[t + 24 + i]) }
        guard width >= 1, width <= 8, count >= 1, count < 1 << 20, table >= 8, table + count * width == t else { return }
        for _ in 0..<min(count, 3) {
            let entry = random.below(count)
            let at = table + entry * width
            var current = 0
            for i in 0..<width { current = current << 8 | Int(bytes[at + i]) }
            for (name, v) in [("0", 0), ("7", 7), ("8", 8), ("plus1", current + 1), ("minus1", current - 1), ("table", table), ("tableMinus1", table - 1)] where v >= 0 {
                var b = bytes
                for i in 0..<width { b[at + i] = UInt8(truncatingIfNeeded: v >> (8 * (width - 1 - i))) }
                add("binary.offset[\(entry)]=\(name)", b)
            }
        }
    }

    // MARK: - Laid out again

    private mutating func widths(_ layout: BinaryLayout) {
        add("binary.relayout", layout.write())
        let minimalOffset = BinaryLayout.byteCount(layout.write().count)
        let minimalRef = BinaryLayout.byteCount(max(layout.objects.count - 1, 0))
        for w in 1...8 where w != minimalOffset {
            add("binary.widths.offset=\(w)", layout.write(offsetSize: w))
        }
        for w in 1...8 where w != minimalRef {
            add("binary.widths.ref=\(w)", layout.write(refSize: w))
        }
        add("binary.widths=3x5", layout.write(offsetSize: 3, refSize: 5))
        add("binary.widths=8x8", layout.write(offsetSize: 8, refSize: 8))
    }

    /// Mutations of single objects, picked at random but the same from run to run.
    private mutating func objects(_ layout: BinaryLayout) {
        let count = layout.objects.count
        var picked: [Int] = []
        // Some objects of each kind the file has, and a few at random.
        var byKind: [UInt8: [Int]] = [:]
        for (i, o) in layout.objects.enumerated() {
            switch o {
            case .scalar(let b): byKind[b[0] >> 4, default: []].append(i)
            case .collection(let kind, _): byKind[kind, default: []].append(i)
            }
        }
        for kind in byKind.keys.sorted() {
            let list = byKind[kind]!
            picked.append(list[random.below(list.count)])
            if list.count > 1 { picked.append(list[random.below(list.count)]) }
        }
        picked = Array(Set(picked)).sorted()
        for i in picked {
            func replaced(_ object: BinaryLayout.Object) -> [UInt8] {
                var l = layout
                l.objects[i] = object
                return l.write()
            }
            switch layout.objects[i] {
            case .scalar(let b):
                let marker = b[0]
                // Every high nibble with the same low nibble, then low-nibble variants.
                for high: UInt8 in 0...15 where high != marker >> 4 {
                    var c = b
                    c[0] = high << 4 | (marker & 0x0F)
                    add("binary.object[\(i)].marker=0x\(hex(c[0]))", replaced(.scalar(c)))
                }
                scalarMutations(i, b) { replaced(.scalar($0)) }
            case .collection(let kind, let refs):
                for high: UInt8 in [0x0, 0x1, 0x4, 0x5, 0x6, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0xE, 0xF] where high != kind {
                    // The same count and references under another marker.
                    var raw: [UInt8] = []
                    BinaryLayout.marker(high, count: kind == 0xD ? refs.count / 2 : refs.count, into: &raw)
                    let refWidth = BinaryLayout.byteCount(max(count - 1, 0))
                    for r in refs { BinaryLayout.append(UInt64(r), width: refWidth, to: &raw) }
                    add("binary.object[\(i)].marker=0x\(hex(high))n", replaced(.scalar(raw)))
                }
                collectionMutations(i, kind, refs, layout, replaced)
            }
        }
    }

    private mutating func scalarMutations(_ i: Int, _ b: [UInt8], _ replaced: ([UInt8]) -> [UInt8]) {
        let marker = b[0]
        let payload = Array(b.dropFirst())
        func scalar(_ bytes: [UInt8]) -> [UInt8] { replaced(bytes) }
        switch marker >> 4 {
        case 0x0:
            for m: UInt8 in [0x00, 0x01, 0x07, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F] where m != marker {
                add("binary.object[\(i)].constant=0x\(hex(m))", scalar([m]))
            }
        case 0x1:
            var value: UInt64 = 0
            for x in payload.suffix(8) { value = value << 8 | UInt64(x) }
            // The same value in every width, and boundary values in each.
            for exponent: UInt8 in 0...4 {
                let width = 1 << Int(exponent)
                var e: [UInt8] = [0x10 | exponent]
                BinaryLayout.append(value, width: width, to: &e)
                add("binary.object[\(i)].int.width=\(width)", scalar(e))
                for (name, v): (String, UInt64) in [("max", width >= 8 ? UInt64.max : (1 << (8 * UInt64(width))) - 1), ("high", 1 << (8 * UInt64(min(width, 8)) - 1)), ("0", 0)] {
                    var f: [UInt8] = [0x10 | exponent]
                    BinaryLayout.append(v, width: width, to: &f)
                    add("binary.object[\(i)].int.width=\(width)=\(name)", scalar(f))
                }
            }
            // 16 bytes with the high half set: CF keeps only the low 64 bits.
            for high: UInt64 in [1, UInt64.max, 1 << 63] {
                var f: [UInt8] = [0x14]
                BinaryLayout.append(high, width: 8, to: &f)
                BinaryLayout.append(value, width: 8, to: &f)
                add("binary.object[\(i)].int128.high=\(high)", scalar(f))
            }
            for m: UInt8 in [0x15, 0x16, 0x1F] {
                add("binary.object[\(i)].int.marker=0x\(hex(m))", scalar([m] + [UInt8](repeating: 0, count: 32)))
            }
        case 0x2:
            let values: [(String, [UInt8])] = [
                ("float", [0x22, 0x3F, 0xC0, 0x00, 0x00]), ("floatNaN", [0x22, 0x7F, 0xC0, 0x00, 0x01]),
                ("double", [0x23, 0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18]), ("doubleInf", [0x23, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0]),
                ("negativeZero", [0x23, 0x80, 0, 0, 0, 0, 0, 0, 0]), ("doubleNaNPayload", [0x23, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0x42]),
                ("1byte", [0x20, 0x01]), ("2bytes", [0x21, 0x01, 0x02]), ("16bytes", [0x24] + [UInt8](repeating: 1, count: 16)),
            ]
            for (name, v) in values { add("binary.object[\(i)].real=\(name)", scalar(v)) }
        case 0x3:
            let values: [(String, UInt64)] = [("0", 0), ("NaN", Double.nan.bitPattern), ("inf", Double.infinity.bitPattern),
                                              ("-inf", (-Double.infinity).bitPattern), ("year10000", (252_460_800_000.0).bitPattern),
                                              ("year-1", (-63_145_526_400.0).bitPattern), ("fraction", (1.25).bitPattern), ("huge", (1e300).bitPattern)]
            for (name, bits) in values {
                var e: [UInt8] = [0x33]
                BinaryLayout.append(bits, width: 8, to: &e)
                add("binary.object[\(i)].date=\(name)", scalar(e))
            }
            for m: UInt8 in [0x30, 0x32, 0x34] { add("binary.object[\(i)].date.marker=0x\(hex(m))", scalar([m] + payload)) }
        case 0x4, 0x5, 0x6:
            let high = marker >> 4
            let unit = high == 0x6 ? 2 : 1
            let content: [UInt8] = {
                // The content after the length.
                if marker & 0x0F != 0x0F { return payload }
                let width = 1 << Int(payload[0] & 0x0F)
                return Array(payload.dropFirst(1 + width))
            }()
            let n = content.count / unit
            // The same content with its count written in the long form, in every width.
            // (From 256 bytes on, CF reads a count of 0: `_getSizedInt` takes the size as a byte.)
            for width in [1, 2, 4, 8, 16, 32, 256, 512] {
                var e: [UInt8] = []
                BinaryLayout.marker(high, count: n, into: &e, forceExtended: true, countWidth: width)
                add("binary.object[\(i)].length.extended=\(width)", scalar(e + content))
            }
            // A count one more or one less than the content.
            for (name, delta) in [("plus1", 1), ("minus1", -1)] where n + delta >= 0 {
                var e: [UInt8] = []
                BinaryLayout.marker(high, count: n + delta, into: &e)
                add("binary.object[\(i)].length.\(name)", scalar(e + content))
            }
            // A length past the file.
            var long: [UInt8] = []
            BinaryLayout.marker(high, count: 1 << 30, into: &long)
            add("binary.object[\(i)].length=huge", scalar(long + content))
            // Other string kinds.
            if high == 0x5 {
                var utf16: [UInt8] = []
                BinaryLayout.marker(0x6, count: content.count, into: &utf16)
                for byte in content { utf16 += [0, byte] }
                add("binary.object[\(i)].string.asUTF16", scalar(utf16))
                for (name, insert) in [("high80", [UInt8](arrayLiteral: 0x80)), ("highFF", [0xFF]), ("utf8", [0xC3, 0xA9]), ("nul", [0x00]), ("e9", [0xE9])] {
                    var e: [UInt8] = []
                    BinaryLayout.marker(0x5, count: content.count + insert.count, into: &e)
                    add("binary.object[\(i)].ascii.insert=\(name)", scalar(e + insert + content))
                }
            }
            if high == 0x6 {
                for (name, insert) in [("loneHigh", [UInt8](arrayLiteral: 0xD8, 0x00)), ("loneLow", [0xDC, 0x00]), ("pair", [0xD8, 0x3D, 0xDE, 0x00]),
                                       ("reversedPair", [0xDE, 0x00, 0xD8, 0x3D]), ("nul", [0x00, 0x00]), ("bom", [0xFE, 0xFF]), ("fffe", [0xFF, 0xFE])] {
                    var e: [UInt8] = []
                    BinaryLayout.marker(0x6, count: n + insert.count / 2, into: &e)
                    add("binary.object[\(i)].utf16.insert=\(name)", scalar(e + insert + content))
                }
                // An odd byte count: a marker that says one unit fewer than the bytes there.
                var ascii: [UInt8] = []
                BinaryLayout.marker(0x5, count: content.count, into: &ascii)
                add("binary.object[\(i)].utf16.asASCII", scalar(ascii + content))
            }
            if high == 0x4 {
                add("binary.object[\(i)].data.empty", scalar([0x40]))
            }
        case 0x8:
            var value: UInt64 = 0
            for x in payload.suffix(8) { value = value << 8 | UInt64(x) }
            for width in 1...16 {
                var e: [UInt8] = [0x80 | UInt8(width - 1)]
                BinaryLayout.append(value, width: width, to: &e)
                add("binary.object[\(i)].uid.width=\(width)", scalar(e))
            }
            for (name, v): (String, UInt64) in [("0", 0), ("uint32max", 0xFFFF_FFFF), ("2^32", 1 << 32), ("max", UInt64.max)] {
                var e: [UInt8] = [0x87]
                BinaryLayout.append(v, width: 8, to: &e)
                add("binary.object[\(i)].uid=\(name)", scalar(e))
            }
        default:
            break
        }
    }

    private mutating func collectionMutations(_ i: Int, _ kind: UInt8, _ refs: [Int], _ layout: BinaryLayout, _ replaced: (BinaryLayout.Object) -> [UInt8]) {
        let count = layout.objects.count
        func with(_ r: [Int]) -> [UInt8] { replaced(.collection(kind: kind, refs: r)) }
        if !refs.isEmpty {
            var r = refs
            r[random.below(r.count)] = i
            add("binary.object[\(i)].ref=self", with(r))
            r = refs
            r[random.below(r.count)] = layout.top
            add("binary.object[\(i)].ref=top", with(r))
            // A reference one past the objects: the layout writes it as it is.
            r = refs
            r[r.count - 1] = count
            add("binary.object[\(i)].ref=count", with(r))
            add("binary.object[\(i)].drop.last", with(kind == 0xD ? Array(refs.prefix(refs.count / 2 - 1) + refs[(refs.count / 2)..<(refs.count - 1)]) : Array(refs.dropLast())))
        }
        switch kind {
        case 0xD where refs.count >= 2:
            let half = refs.count / 2
            var r = refs
            // A key repeated: the second key made a copy of the first.
            if half >= 2 {
                r[1] = r[0]
                add("binary.object[\(i)].dict.duplicateKey", with(r))
            }
            // A value used as a key, whatever its kind.
            r = refs
            r[0] = refs[half]
            add("binary.object[\(i)].dict.valueAsKey", with(r))
            r = refs
            r[0] = i
            add("binary.object[\(i)].dict.selfAsKey", with(r))
            // Keys and values swapped.
            add("binary.object[\(i)].dict.swapped", with(Array(refs[half...] + refs[..<half])))
            // Written with its count in the long form.
            var raw: [UInt8] = []
            BinaryLayout.marker(0xD, count: half, into: &raw, forceExtended: true)
            let refWidth = BinaryLayout.byteCount(max(count - 1, 0))
            for x in refs { BinaryLayout.append(UInt64(x), width: refWidth, to: &raw) }
            add("binary.object[\(i)].dict.longCount", replaced(.scalar(raw)))
        case 0xA where !refs.isEmpty:
            add("binary.object[\(i)].array.doubled", with(refs + refs))
            var raw: [UInt8] = []
            BinaryLayout.marker(0xA, count: refs.count, into: &raw, forceExtended: true, countWidth: 8)
            let refWidth = BinaryLayout.byteCount(max(count - 1, 0))
            for x in refs { BinaryLayout.append(UInt64(x), width: refWidth, to: &raw) }
            add("binary.object[\(i)].array.longCount8", replaced(.scalar(raw)))
            add("binary.object[\(i)].array.asSet.doubled", replaced(.collection(kind: 0xC, refs: refs + refs)))
        default:
            break
        }
    }

    /// The top object pointed at each kind of object.
    private mutating func references(_ layout: BinaryLayout) {
        var seen = Set<UInt8>()
        for (i, o) in layout.objects.enumerated() where i != layout.top {
            let kind: UInt8
            switch o {
            case .scalar(let b): kind = b[0] >> 4
            case .collection(let k, _): kind = k
            }
            guard seen.insert(kind).inserted else { continue }
            add("binary.top=\(i)", layout.write(topOverride: i))
        }
    }
}

func hex(_ b: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(b >> 4)], digits[Int(b & 0x0F)]])
}

/// The harness's generator: the same file gets the same mutations in every run, so that the
/// differences table can name them.
typealias ParityRandom = SplitMix64
