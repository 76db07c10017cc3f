/// Tells a binary property list that was cut short (`head -c 200 file.bplist`, an interrupted
/// copy, a carved fragment) from one that is damaged some other way.
///
/// A cut file has lost its trailer, so the last 32 bytes hold object data and the trailer's
/// checks fail with nonsense ("an offset size of 115 bytes"). Before reporting that, the
/// objects are walked from byte 8 by their markers alone: when that walk runs on to the end of
/// the file, and the last 32 bytes are not shaped like a trailer, the file is truncated, and the
/// walk gives a lower bound on how long it was: the objects, one offset per object, then the
/// 32-byte trailer.
enum BinaryPropertyListTruncation {
    /// The smallest complete file: the 8-byte header, one 1-byte object, a 1-byte offset table
    /// and the 32-byte trailer.
    static let minimumLength = BinaryPropertyListTrailer.headerSize + 1 + 1 + BinaryPropertyListTrailer.size

    /// The error for a truncated file, or nil when the bytes do not look cut short.
    static func diagnose(_ bytes: UnsafeRawBufferPointer) -> PropertyListError? {
        let length = bytes.count
        guard length >= minimumLength else {
            return error(length: length, needs: minimumLength)
        }
        // A real trailer begins with five unused zero bytes; object data there rarely does.
        let trailerStart = length - BinaryPropertyListTrailer.size
        if (trailerStart..<trailerStart + 5).allSatisfy({ bytes[$0] == 0 }) { return nil }
        // The reference width is unknown without the trailer. Each width gives a walk; a wrong
        // one soon derails into bytes that are no object. The file is called truncated when a
        // walk shows objects running on to or past its end (then the offset table and trailer
        // cannot fit), and the walk through the most objects gives the length it needed.
        var needed: (objects: Int, length: Int)?
        for width in [1, 2, 3, 4, 8] {
            let walk = Walk(bytes, referenceWidth: width)
            guard walk.objects > 0, width == 8 || walk.objects <= 1 << (8 * width) else { continue }
            let end = walk.reach
            let offsetWidth = end < 1 << 8 ? 1 : end < 1 << 16 ? 2 : end < 1 << 32 ? 4 : 8
            let (tableSize, o1) = walk.objects.multipliedReportingOverflow(by: offsetWidth)
            let (withTable, o2) = end.addingReportingOverflow(tableSize)
            let (total, o3) = withTable.addingReportingOverflow(BinaryPropertyListTrailer.size)
            guard !o1, !o2, !o3, total > length else { continue }
            if needed == nil || walk.objects > needed!.objects { needed = (walk.objects, total) }
        }
        return needed.map { error(length: length, needs: $0.length) }
    }

    static let messagePrefix = "truncated: the file ends at byte "

    static func error(length: Int, needs: Int) -> PropertyListError {
        PropertyListError(.truncated, "\(messagePrefix)\(length); its trailer needs the file to run to at least byte \(needs)",
                          at: .byteOffset(length))
    }

    /// Objects read one after another by their markers, with `referenceWidth`-byte references.
    struct Walk {
        /// How many objects were passed (the last may run past the end of the file).
        var objects = 0
        /// Where the objects end: past the end of the file when the last one is cut off.
        var reach = BinaryPropertyListTrailer.headerSize

        init(_ bytes: UnsafeRawBufferPointer, referenceWidth: Int) {
            let length = bytes.count
            var at = BinaryPropertyListTrailer.headerSize
            while at < length {
                guard let size = Self.size(of: at, in: bytes, referenceWidth: referenceWidth) else { break }
                objects += 1
                let (end, overflow) = at.addingReportingOverflow(size)
                guard !overflow else { break }
                at = end
                reach = end
                if end > length { break }
            }
        }

        /// The size of the object at `at`, marker included; nil for a byte that is no marker.
        /// A size may run past the end of the file: that is what is being looked for.
        static func size(of at: Int, in bytes: UnsafeRawBufferPointer, referenceWidth: Int) -> Int? {
            let marker = bytes[at]
            let low = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                return [0x0, 0x8, 0x9, 0xF].contains(low) ? 1 : nil
            case 0x1:
                return low <= 4 ? 1 + (1 << low) : nil
            case 0x2:
                return low == 2 || low == 3 ? 1 + (1 << low) : nil
            case 0x3:
                return low == 3 ? 9 : nil
            case 0x8:
                return 1 + low + 1
            case 0x4, 0x5, 0x6, 0x7, 0xA, 0xB, 0xC, 0xD:
                guard let (count, header) = Self.count(at: at, low: low, in: bytes) else { return nil }
                let unit = switch marker >> 4 {
                case 0x6: 2
                case 0xA, 0xB, 0xC: referenceWidth
                case 0xD: 2 * referenceWidth
                default: 1
                }
                let (body, o1) = count.multipliedReportingOverflow(by: unit)
                let (total, o2) = body.addingReportingOverflow(header)
                return o1 || o2 ? nil : total
            default:
                return nil
            }
        }

        /// A length: in the marker's low nibble, or, when that is 15, in the integer after it.
        static func count(at: Int, low: Int, in bytes: UnsafeRawBufferPointer) -> (count: Int, header: Int)? {
            guard low == 15 else { return (low, 1) }
            // The file may end inside the integer; then the object surely runs past the end.
            guard at + 1 < bytes.count else { return (0, 2) }
            let intMarker = bytes[at + 1]
            guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else { return nil }
            let width = 1 << Int(intMarker & 0x0F)
            guard at + 2 + width <= bytes.count else { return (0, 2 + width) }
            var value = 0
            for i in 0..<width {
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 256)
                guard !overflow else { return nil }
                value = shifted | Int(bytes[at + 2 + i])
            }
            return value >= 0 ? (value, 2 + width) : nil
        }
    }
}
