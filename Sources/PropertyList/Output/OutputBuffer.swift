import Foundation
internal import SystemInterface

/// A growable byte buffer for the writers, handed over to `Data` without copying.
///
/// Writers emit many short pieces; appending them to `[UInt8]` and then copying the array into
/// `Data` costs a second pass over output that can run to hundreds of megabytes. This buffer
/// grows with `realloc` (which remaps large blocks instead of copying them) and becomes the
/// `Data`'s storage when the writer is done. It is noncopyable, so exactly one owner frees it.
///
/// It is SPI rather than `package` because its appends run once per byte or token and must be
/// inlined into the other writers' modules; `package` declarations are not inlined across
/// modules in a default build, while `@inlinable` SPI ones are.
@_spi(Writers)
public struct OutputBuffer: ~Copyable {
    /// The bytes written so far are `base[0..<count]`; `base[count..<capacity]` is free.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count: Int
    /// Where the appends must stop and call `grow`: the end of the allocation, or for a large
    /// buffer the end of the part made ready so far (see `prepare`).
    @usableFromInline var capacity: Int
    /// The size of the allocation.
    @usableFromInline var allocated: Int

    public init(capacity: Int = 4096) {
        let size = max(capacity, 64)
        guard let p = malloc(size) else { Self.outOfMemory(size) }
        base = p.assumingMemoryBound(to: UInt8.self)
        count = 0
        allocated = size
        self.capacity = size
        if size >= Self.preparedChunk { self.capacity = 0 }
    }

    deinit { free(base) }

    /// The bytes written, as `Data` that now owns the memory.
    public consuming func data() -> Data {
        let data = count == 0 ? Data() : Data(bytesNoCopy: base, count: count, deallocator: .free)
        if count == 0 { free(base) }
        discard self
        return data
    }

    /// A copy of bytes already written, such as a token to append again later.
    public func bytes(_ range: Range<Int>) -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= count else { return [] }
        return Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// The number of bytes written.
    @inlinable
    public var length: Int { count }

    /// Makes room for `n` more bytes, so that the next `n` unchecked writes stay in bounds.
    @inlinable @inline(__always)
    public mutating func reserve(_ n: Int) {
        if capacity - count < n { grow(n) }
    }

    @usableFromInline @inline(never)
    mutating func grow(_ n: Int) {
        let (needed, overflow) = count.addingReportingOverflow(n)
        guard !overflow else { Self.outOfMemory(Int.max) }
        if needed > allocated {
            var size = allocated
            while size < needed { size = size > Int.max / 2 ? needed : size * 2 }
            guard let p = realloc(base, size) else { Self.outOfMemory(size) }
            base = p.assumingMemoryBound(to: UInt8.self)
            allocated = size
            capacity = min(capacity, size)
        }
        guard allocated >= Self.preparedChunk else {
            capacity = allocated
            return
        }
        // Large buffers are made ready a chunk at a time, just ahead of the writes.
        while capacity < needed { prepare() }
    }

    /// The pages of a large buffer are asked of the kernel a few megabytes at a time, just
    /// before they are written: one call maps a whole chunk, where touching each new page
    /// would stop the writer once per 4 KiB page. Where the kernel cannot (no
    /// `MADV_POPULATE_WRITE`), the pages come one fault at a time as usual.
    static let preparedChunk = 4 << 20

    @usableFromInline
    mutating func prepare() {
        let end = min(allocated, capacity + Self.preparedChunk)
        MemoryMap.populateForWriting(from: Int(bitPattern: base) + capacity, to: Int(bitPattern: base) + end)
        capacity = end
    }

    /// Memory is exhausted: there is no way to go on, as for any Swift allocation.
    @usableFromInline
    static func outOfMemory(_ size: Int) -> Never {
        preconditionFailure("out of memory allocating \(size) bytes of output")
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if count == capacity { grow(1) }
        base[count] = byte
        count += 1
    }

    /// Appends a byte after `reserve` made room for it.
    @inlinable @inline(__always)
    public mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard n > 0, let source = bytes.baseAddress else { return }
        reserve(n)
        // Short pieces (keys, tokens) by word moves, long ones by `memmove`.
        appendUnchecked(source, count: n)
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    @inlinable @inline(__always)
    public mutating func append(_ s: StaticString) {
        // A one-scalar literal, stored as the scalar, takes at most four bytes.
        reserve(s.hasPointerRepresentation ? s.utf8CodeUnitCount : 4)
        appendUnchecked(s)
    }

    /// `n` copies of `byte`.
    @inlinable @inline(__always)
    public mutating func append(repeating byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (base + count).update(repeating: byte, count: n)
        count += n
    }

    /// Appends again the bytes already written at `range`, such as a piece rendered once and
    /// repeated for every object that shares it.
    @inlinable @inline(__always)
    public mutating func appendCopy(of range: Range<Int>) {
        let n = range.count
        guard n > 0, range.lowerBound >= 0, range.upperBound <= count else { return }
        reserve(n)
        // The source lies before `count` and the destination after it: they never overlap.
        (base + count).update(from: base + range.lowerBound, count: n)
        count += n
    }

    /// The decimal digits of `magnitude`, with a minus sign first when `negative`.
    @inlinable @inline(__always)
    public mutating func appendDecimal(_ magnitude: UInt64, negative: Bool = false) {
        reserve(21)
        appendDecimalUnchecked(magnitude, negative: negative)
    }

    /// The decimal digits of `magnitude` after `reserve` made room for 21 bytes.
    @inlinable @inline(__always)
    public mutating func appendDecimalUnchecked(_ magnitude: UInt64, negative: Bool = false) {
        if negative {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        if magnitude < 10 {
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
            count += 1
            return
        }
        var digits = 2
        var limit: UInt64 = 100
        while digits < 20, magnitude >= limit {
            digits += 1
            limit &*= 10
        }
        var at = count + digits
        var v = magnitude
        repeat {
            at -= 1
            base[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        } while v > 0
        count += digits
    }

    /// A line break and `spaces` spaces after `reserve` made room for `spaces + 9` bytes: the
    /// spaces are stored eight at a time, and the slack takes the last store's overshoot.
    @inlinable @inline(__always)
    public mutating func appendLineBreakUnchecked(indent spaces: Int) {
        base[count] = 0x0A
        let raw = UnsafeMutableRawPointer(base + count + 1)
        var offset = 0
        while offset < spaces {
            raw.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        count += 1 + spaces
    }

    /// A static string after `reserve` made room for it.
    @inlinable @inline(__always)
    public mutating func appendUnchecked(_ s: StaticString) {
        guard s.hasPointerRepresentation else {
            // A one-scalar literal is stored as the scalar.
            return s.withUTF8Buffer { appendUnchecked(UnsafeRawPointer($0.baseAddress ?? UnsafePointer(base)), count: $0.count) }
        }
        appendUnchecked(UnsafeRawPointer(s.utf8Start), count: s.utf8CodeUnitCount)
    }

    /// `n` bytes from `source` after `reserve` made room for them. Short runs (tokens, keys)
    /// are copied with a few overlapping word moves instead of a call to `memmove`.
    @inlinable @inline(__always)
    public mutating func appendUnchecked(_ source: UnsafeRawPointer, count n: Int) {
        let destination = UnsafeMutableRawPointer(base + count)
        switch n {
        case 8...16:
            destination.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8, as: UInt64.self)
        case 4..<8:
            destination.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self), toByteOffset: n - 4, as: UInt32.self)
        case 0..<4:
            for i in 0..<n { destination.storeBytes(of: source.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self) }
        default:
            destination.copyMemory(from: source, byteCount: n)
        }
        count += n
    }

    /// `width` digits of `v` (0 ≤ v < 10^width), zero-padded, after `reserve` made room: the
    /// fields of a date.
    @inlinable @inline(__always)
    public mutating func appendZeroPaddedUnchecked(_ v: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = v
        while divisor > 0 {
            appendUnchecked(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// A signed integer in decimal.
    @inlinable @inline(__always)
    public mutating func appendDecimal(_ value: Int) {
        appendDecimal(value.magnitude.toUInt64, negative: value < 0)
    }

    /// Drops the bytes written from `length` on, keeping the memory.
    @inlinable @inline(__always)
    public mutating func truncate(to length: Int) {
        guard length >= 0, length < count else { return }
        count = length
    }

    /// Hands the bytes written so far to `body` and empties the buffer, keeping its memory:
    /// for writers that stream their output in pieces.
    public mutating func drain(_ body: (UnsafeRawBufferPointer) -> Void) {
        guard count > 0 else { return }
        body(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    /// `drain(_:)` once `size` bytes or more are written and there is a `body`: how a streaming
    /// writer hands its output on a chunk at a time.
    @inlinable @inline(__always)
    public mutating func drain(ifAtLeast size: Int, to body: ((UnsafeRawBufferPointer) -> Void)?) {
        if let body, count >= size { drain(body) }
    }

    /// The UTF-8 bytes of a string.
    @inlinable @inline(__always)
    public mutating func append(string s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }
}

extension UInt {
    @inlinable @inline(__always) var toUInt64: UInt64 { UInt64(self) }
}
