import Dispatch
import Foundation

/// XML written by several threads: the entries of the top collection, split into pieces.
///
/// XML repeats a value at each place that refers to it and numbers nothing, so each entry's
/// text depends on that entry alone; pieces written apart and joined in order are the bytes
/// one walk writes. Each thread walks with its own copy of the parser, opened at the top
/// collection, so it finds cycles through the top and keeps to the depth limit as one walk
/// does. What the walks add to the expanded size is summed against the limits afterwards: a
/// file past them, or one any piece refuses, is left to the tree, which reports why, as after
/// a single walk. A collection shared between pieces of different threads is written at each
/// place, as the tree writes it; each thread still refuses what it meets twice, so the work
/// stays within the threads' number times one walk's.
extension BinaryPropertyListConverter {
    /// Input bytes per piece, about: pieces of some hundreds of kilobytes of XML each keep the
    /// threads evenly busy and the pieces waiting to be handed on few.
    static let inputBytesPerPiece = 256 << 10

    /// Writes the XML of the file `parser` opened in pieces, and gives whether the walks took
    /// it; nil, with nothing written, when its top object is not a collection of two entries
    /// or more (the caller writes it with one walk).
    func transcodeXMLInPieces(_ parser: BinaryPropertyListParser, drain: ((UnsafeRawBufferPointer) -> Void)?,
                              finished: (Data) -> Void) throws(PropertyListError) -> Bool? {
        var parser = parser
        let top = parser.trailer.topObject
        let start = parser.offset(top)
        let kind = parser.bytes[start] >> 4
        guard kind == 0xA || kind == 0xC || kind == 0xD else { return nil }
        guard let (entries, _) = try? parser.count(Int(parser.bytes[start] & 0x0F), at: start, index: top),
              entries >= 2 else { return nil }

        // The top collection, opened and (a dictionary) with its keys read, as one walk does.
        var head = BinaryPropertyListParser.XMLTranscoding(capacity: 4096, drain: nil)
        head.out.append(XMLPropertyListText.header)
        let refs: Int
        var keys: XMLPropertyListText.SortedKeys?
        if kind == 0xD {
            let (count, at) = try parser.openDictionary(top, at: start, depth: 0)
            keys = try parser.xmlKeys(count: count, refs: at, depth: 0, into: &head)
            refs = at
            head.out.append("<dict>\n")
        } else {
            let (count, at) = try parser.openArray(top, at: start, depth: 0)
            // A top set with two members CF holds equal is one walk's to give up on, as it does
            // for any set (`checkDistinctMembers`; found by FuzzBinaryPropertyList).
            if kind == 0xC, (try? parser.checkDistinctMembers(count, refs: at)) == nil { return nil }
            refs = at
            head.out.append("<array>\n")
        }
        let opened = parser.expanded
        let pieceCount = min(entries, max(workers * 4, parser.bytes.count / Self.inputBytesPerPiece))
        // Without a drain, the pieces are joined as they are handed on, into one `Data`.
        let joined = drain == nil ? JoinedOutput(capacity: parser.bytes.count * 3) : nil
        let handOn: (UnsafeRawBufferPointer) -> Void = drain ?? { joined?.data.append(contentsOf: $0) }
        let pieces = TranscodedPieces(count: pieceCount, drain: handOn)
        head.out.drain(handOn)

        let bytesPerPiece = parser.bytes.count * 3 / pieceCount + 4096
        let opener = OpenedParser(parser: parser)
        let sortedKeys = keys
        let stackSize = workerStackSize
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let work = { Self.writePieces(of: opener, entries: entries, refs: refs, keys: sortedKeys, bytesPerPiece: bytesPerPiece,
                                          opened: opened, into: pieces) }
            if let stackSize, DeepStackThread.run(stackSize: stackSize, work) { return }
            work()
        }
        guard !pieces.failed else { return false }
        // The walks' sum against the limits, as one walk would have counted it: past them, the
        // error goes to the caller, which leaves the file to the tree.
        for weight in pieces.grown { try parser.grow(by: weight, index: top) }

        var tail = OutputBuffer(capacity: 64)
        tail.append(kind == 0xD ? "</dict>\n" : "</array>\n")
        tail.append(XMLPropertyListText.footer)
        for piece in pieces.remaining() { piece.withUnsafeBytes { handOn($0) } }
        tail.drain(handOn)
        if let joined { finished(joined.data) }
        return true
    }

    /// One thread's share: pieces claimed from `pieces` until none is left, each walked with a
    /// copy of `opener` and given back written.
    private static func writePieces(of opener: OpenedParser, entries: Int, refs: Int, keys: XMLPropertyListText.SortedKeys?,
                                    bytesPerPiece: Int, opened: BinaryPropertyListParser.Weight, into pieces: TranscodedPieces) {
        var walker = opener.parser
        let refSize = walker.trailer.objectRefSize
        let pieceCount = pieces.count
        while let number = pieces.claim() {
            var t = BinaryPropertyListParser.XMLTranscoding(capacity: bytesPerPiece, drain: nil)
            do throws(PropertyListError) {
                for position in number * entries / pieceCount..<(number + 1) * entries / pieceCount {
                    if let keys {
                        XMLPropertyListText.tabs(1, into: &t.out)
                        keys.appendLine(position, into: &t.out)
                        let value = walker.ref(refs + (entries + keys.order[position]) * refSize)
                        try walker.transcodeXML(value, depth: 1, indent: 1, into: &t)
                    } else {
                        try walker.transcodeXML(walker.ref(refs + position * refSize), depth: 1, indent: 1, into: &t)
                    }
                }
            } catch {
                pieces.fail()
                return
            }
            pieces.finish(number, t.out.data())
        }
        pieces.add(walker.grown(since: opened))
    }
}

/// The parser opened at the top collection, which each thread copies: a value whose arrays are
/// copied on a thread's first write, over input bytes that nothing writes and that outlive the
/// threads (`concurrentPerform` returns once they are all done).
private struct OpenedParser: @unchecked Sendable {
    let parser: BinaryPropertyListParser
}

/// The XML of a conversion that returns it whole, appended to as pieces are handed on (by one
/// thread at a time, under `TranscodedPieces`' lock).
private final class JoinedOutput: @unchecked Sendable {
    var data: Data

    init(capacity: Int) { data = Data(capacity: capacity) }
}
