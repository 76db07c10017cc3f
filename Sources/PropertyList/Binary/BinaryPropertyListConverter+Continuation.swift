import Foundation

/// The binary walk of a file CF wrote, on two threads: the second half of the top collection
/// laid out on speculation while the first half is walked.
///
/// The walk numbers objects one after another, so the second half's numbers depend on the
/// first's. But a file CF wrote comes back byte for byte, each object at its own index and
/// byte: a second thread can take the entries of the top array or dictionary from about the
/// middle of the input on as if the first half had come back so, starting at the input's index
/// and byte of its first entry, comparing only (`BinaryPropertyListFileBuilder`'s continuing
/// builder). Where it meets a scalar of the first half (a dictionary key, a shared string), it
/// takes it to be numbered there at its own index, and notes it; a boolean of the first half,
/// to be the first `true` or `false` there.
///
/// The first thread then walks the first half as ever. The halves are joined only when every
/// guess holds: the first half came back byte for byte up to that very index and byte; it
/// numbered each scalar the second took to be there, at its own index; its first booleans
/// are those the second assumed (or it had none, where the second numbered its own); no
/// collection or large scalar was read by both (a shared one is the tree's, as in one walk);
/// and the expanded size of both together is within the limits. The result is then what one
/// walk gives, since one walk would have met the same objects with the same numbers. Otherwise
/// the first thread goes on with the second half itself, and the second thread's work is
/// dropped: it stops early when the first half stops mirroring.
extension BinaryPropertyListConverter {
    /// Numbers and writes the top object as `BinaryPropertyListParser.transcodeBinary` does,
    /// with the entries of a top array or dictionary from about the middle of the input on laid
    /// out on speculation by a second thread when `split`; returns the top's output index.
    func transcodeBinaryTop(_ parser: inout BinaryPropertyListParser, source: UnsafeRawBufferPointer, split: Bool,
                            into t: inout BinaryPropertyListParser.BinaryTranscoding) throws(PropertyListError) -> Int {
        let top = parser.trailer.topObject
        let start = parser.offset(top)
        let kind = parser.bytes[start] >> 4
        guard split, t.file.isMirroring, kind == 0xA || kind == 0xD else {
            return try parser.transcodeBinary(top, depth: 0, into: &t)
        }
        // The top collection opened, numbered and (a dictionary) with its keys, as one walk does.
        let (output, entries) = try parser.openBinaryCollection(top, at: start, depth: 0, into: &t)
        let count = entries.count

        var next = 0
        if let half = Self.secondHalf(of: entries, in: parser) {
            let job = Continuation(parser: parser, source: source, entries: entries, half: half, refSize: t.file.refSize)
            let initiallySeen = parser.seen
            if let thread = DeepStackThread.start(stackSize: workerStackSize, { job.run() }) {
                do throws(PropertyListError) {
                    for i in 0..<half.entry {
                        try parser.transcodeBinaryEntry(i, of: entries, depth: 1, into: &t)
                        if i & 63 == 63, !t.file.isMirroring { job.cancel() }
                    }
                } catch {
                    job.cancel()
                    thread.join()
                    throw error
                }
                if !t.file.isMirroring { job.cancel() }
                thread.join()
                if let laidOut = job.takeResult(),
                   Self.joins(laidOut, after: t, parser: parser, half: half, initiallySeen: initiallySeen) {
                    try parser.grow(by: laidOut.grown, index: top)
                    t.file.append(laidOut.file)
                    next = count
                    t.joinedSecondHalf = true
                } else {
                    next = half.entry
                }
            }
        }
        for i in next..<count { try parser.transcodeBinaryEntry(i, of: entries, depth: 1, into: &t) }
        parser.leave(top)
        return output
    }

    /// Where the second half starts: the entry, and the input index and byte of its object.
    struct SecondHalf {
        let entry: Int
        let object: Int
        let byte: Int
    }

    /// The first entry whose object is a collection at or past the middle of the object area,
    /// about: nil when there is none near it. Any entry would do for correctness (the join
    /// checks every guess); a collection is never shared, so a file CF wrote numbers it anew.
    static func secondHalf(of entries: BinaryPropertyListParser.CollectionEntries, in parser: BinaryPropertyListParser) -> SecondHalf? {
        guard entries.count >= 2 else { return nil }
        let refSize = parser.trailer.objectRefSize
        func object(_ i: Int) -> Int { parser.ref(entries.refs + i * refSize) }
        func byte(_ i: Int) -> Int { parser.offset(object(i)) }
        let middle = byte(0) / 2 + parser.trailer.offsetTableOffset / 2
        // Entries lie in file order in a file CF wrote; in any other, the split is only less even.
        var low = 1, high = entries.count - 1
        while low < high {
            let mid = (low + high) / 2
            if byte(mid) < middle { low = mid + 1 } else { high = mid }
        }
        // Every entry before the middle: the second half would be the last entry's alone.
        guard byte(low) >= middle else { return nil }
        for i in low..<min(low + 64, entries.count) {
            let kind = parser.bytes[byte(i)] >> 4
            if kind == 0xA || kind == 0xC || kind == 0xD { return SecondHalf(entry: i, object: object(i), byte: byte(i)) }
        }
        return nil
    }

    /// Whether the second half, laid out on speculation, continues the first as one walk would
    /// have (see above).
    private static func joins(_ laidOut: borrowing Continuation.Result, after first: borrowing BinaryPropertyListParser.BinaryTranscoding,
                              parser: BinaryPropertyListParser, half: SecondHalf, initiallySeen: [UInt64]) -> Bool {
        guard !laidOut.file.isAbandoned, first.file.continues(at: half.object, half.byte) else { return false }
        // Each scalar of the first half the second took to be numbered, at its own index.
        for (word, bits) in laidOut.assumedBefore.enumerated() where bits != 0 {
            var rest = bits
            while rest != 0 {
                let index = word << 6 | rest.trailingZeroBitCount
                guard index < first.scalarIndexes.count, first.scalarIndexes[index] == Int32(truncatingIfNeeded: index) else { return false }
                rest &= rest - 1
            }
        }
        // The first `false` and `true`: those the second assumed, or none before its own.
        for (assumed, had) in [(laidOut.booleanIndexes.0, first.booleanIndexes.0), (laidOut.booleanIndexes.1, first.booleanIndexes.1)] {
            if assumed < 0 { continue }
            if Int(assumed) < half.object ? had != assumed : had >= 0 { return false }
        }
        // Nothing read by both halves (beyond what was read before they split).
        let mine = parser.seen, theirs = laidOut.seen
        for w in 0..<min(mine.count, theirs.count, initiallySeen.count) where mine[w] & theirs[w] & ~initiallySeen[w] != 0 {
            return false
        }
        return true
    }

    /// The second thread's walk and what it laid out.
    private final class Continuation: @unchecked Sendable {
        /// What the second thread laid out, with the state its parser ended in.
        struct Result: ~Copyable {
            let file: BinaryPropertyListFileBuilder
            /// The continuing walk's `assumedBefore` and `booleanIndexes`.
            let assumedBefore: [UInt64]
            let booleanIndexes: (Int32, Int32)
            let seen: [UInt64]
            /// What the walk added to the expanded size, for the first thread to count.
            let grown: BinaryPropertyListParser.Weight
        }

        private let parser: BinaryPropertyListParser
        private let source: UnsafeRawBufferPointer
        private let entries: BinaryPropertyListParser.CollectionEntries
        private let half: SecondHalf
        private let refSize: Int
        private let lock = NSLock()
        private var cancelled = false
        private var result: Result?

        /// The walk of `half` of `entries` with a copy of `parser`, opened at the top, over
        /// `source`, which outlives the thread (the caller joins it before returning).
        init(parser: BinaryPropertyListParser, source: UnsafeRawBufferPointer, entries: BinaryPropertyListParser.CollectionEntries, half: SecondHalf, refSize: Int) {
            self.parser = parser
            self.source = source
            self.entries = entries
            self.half = half
            self.refSize = refSize
        }

        /// Stops the walk at its next check: the first half no longer mirrors the input.
        func cancel() {
            lock.lock()
            cancelled = true
            lock.unlock()
        }

        private var isCancelled: Bool {
            lock.lock()
            defer { lock.unlock() }
            return cancelled
        }

        /// What the walk laid out, when it went to the end: nil when it stopped (cancelled,
        /// abandoned, an error: the first thread then walks the rest itself). Once, after `join`.
        func takeResult() -> Result? {
            result.take()
        }

        func run() {
            var walker = parser
            let opened = walker.expanded
            var t = BinaryPropertyListParser.BinaryTranscoding(continuing: source, trailer: walker.trailer, refSize: refSize,
                                                               fromObject: half.object, atByte: half.byte)
            do throws(PropertyListError) {
                for i in half.entry..<entries.count {
                    if i & 63 == 0, isCancelled || t.file.isAbandoned { return }
                    try walker.transcodeBinaryEntry(i, of: entries, depth: 1, into: &t)
                }
            } catch {
                return
            }
            guard !t.file.isAbandoned else { return }
            result = Result(file: t.file, assumedBefore: t.assumedBefore, booleanIndexes: t.booleanIndexes,
                            seen: walker.seen, grown: walker.grown(since: opened))
        }
    }
}
