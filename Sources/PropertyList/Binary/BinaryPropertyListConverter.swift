import Foundation

/// Converts a binary property list to XML or to binary again without building its tree: the
/// objects are written as they are read, straight from the file.
///
/// The output is byte for byte what the reader and a writer give together
/// (`XMLPropertyListWriter().write(BinaryPropertyListReader(options:).read(data))`, and for
/// binary `BinaryPropertyListLayoutWriter(original: data)`, which lays the tree out as CF writes
/// back what it read), and so are the errors: a file the walk does not take (an error, a value
/// the target format cannot hold) is read and written the ordinary way, which reports why.
/// Tests hold the two ways to the same bytes on every binary file of the corpus, and the binary
/// fuzz target on whatever it makes.
///
/// A file that shares a collection or a large scalar between several places (which CF's writer
/// never does) is read as a tree, where each is read once: the walk would read and write it
/// again at each place.
public struct BinaryPropertyListConverter: Sendable {
    public var options: PropertyListReadOptions
    /// The threads that write XML: the entries of the top array or dictionary are split into
    /// pieces that are written side by side and handed on in order (XML shares nothing between
    /// entries, so the bytes are the same). Binary output takes two when there are: the second
    /// lays out the second half of a file CF wrote on speculation, while the first walks the
    /// first half (see `transcodeBinaryTop`). One thread writes everything. Defaults to the
    /// processors available, at most 8.
    public var workers: Int
    /// Inputs smaller than this (1 MiB by default) are written by one thread, which is then
    /// faster than starting others.
    public var minimumBytesForWorkers: Int
    /// The stack of each thread that writes a piece. Nil gives threads their ordinary stack,
    /// which holds the default depth limit; with a higher `options.maximumDepth` and no stack
    /// size given, one thread (the caller's) writes everything.
    public var workerStackSize: Int?

    public init(options: PropertyListReadOptions = .default, workers: Int = Self.defaultWorkers,
                minimumBytesForWorkers: Int = 1 << 20, workerStackSize: Int? = nil) {
        self.options = options
        self.workers = workers
        self.minimumBytesForWorkers = minimumBytesForWorkers
        self.workerStackSize = workerStackSize
    }

    /// Whether XML is written by several threads: more than one asked for, an input large
    /// enough, and stacks for the depth limit.
    var writesInPieces: Bool {
        workers > 1 && (workerStackSize != nil || options.maximumDepth <= PropertyListReadOptions.default.maximumDepth)
    }

    /// Whether `transcodeXML(_:chunkSize:to:)` of `data` may write its XML on several threads
    /// (it does when the top object is a collection of two entries or more): a caller then
    /// need not start threads of its own beside them.
    public func mayWriteXMLOnSeveralThreads(_ data: Data) -> Bool {
        takesWorkers(data)
    }

    /// Whether `data` is written by more than one thread where the format can be: XML in
    /// pieces, binary with its second half laid out beside the first.
    func takesWorkers(_ data: Data) -> Bool {
        writesInPieces && data.count >= minimumBytesForWorkers
    }

    /// The processors this process may run on, at most 8.
    public static var defaultWorkers: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8) }

    /// `data` as an XML property list.
    ///
    /// - Throws: `PropertyListError` as `BinaryPropertyListReader.read` or
    ///   `XMLPropertyListWriter.write` throws it.
    public func xml(_ data: Data) throws(PropertyListError) -> Data {
        if let written = transcodedXML(data) { return written }
        return try XMLPropertyListWriter().write(BinaryPropertyListReader(options: options).read(data))
    }

    /// `data` rewritten as a binary property list as CF writes back what it read: a file CF
    /// wrote comes back byte for byte. The walk's bytes, or else those of the tree written by
    /// `BinaryPropertyListLayoutWriter` over `data`, which are the same wherever both write.
    ///
    /// - Throws: `PropertyListError` as `BinaryPropertyListReader.read` throws it.
    public func binary(_ data: Data) throws(PropertyListError) -> Data {
        if let written = transcodedBinary(data) { return written }
        return BinaryPropertyListLayoutWriter(original: data, options: options).write(try BinaryPropertyListReader(options: options).read(data))
    }

    /// The XML, or nil when the walk does not take the file: the caller then reads and writes
    /// it the ordinary way, which says why.
    public func transcodedXML(_ data: Data) -> Data? {
        var written: Data?
        _ = transcodeXML(data, drain: nil) { written = $0 }
        return written
    }

    /// Writes the XML to `drain` a chunk of about `chunkSize` bytes at a time, as the file is
    /// read, so that it is never held whole. Returns false when the walk does not take the file,
    /// which it may find after some chunks were handed on: the caller must then drop them, and
    /// read and write the file the ordinary way, which says why.
    public func transcodeXML(_ data: Data, chunkSize: Int = 1 << 20, to drain: (UnsafeRawBufferPointer) -> Void) -> Bool {
        withoutActuallyEscaping(drain) { drain in
            transcodeXML(data, chunkSize: chunkSize, drain: drain) { _ in }
        }
    }

    func transcodeXML(_ data: Data, chunkSize: Int = 1 << 20, drain: ((UnsafeRawBufferPointer) -> Void)?,
                      finished: (Data) -> Void) -> Bool {
        guard data.count <= options.maximumInputSize else { return false }
        return data.withUnsafeBytes { raw -> Bool in
            do throws(PropertyListError) {
                var parser = try BinaryPropertyListParser(raw, options: options, sharing: .refused)
                guard parser.isPlainFile else { return false }
                if mayWriteXMLOnSeveralThreads(data), let split = try transcodeXMLInPieces(parser, drain: drain, finished: finished) {
                    return split
                }
                // XML is about three times the binary size.
                var transcoding = BinaryPropertyListParser.XMLTranscoding(capacity: raw.count * 3, chunkSize: chunkSize, drain: drain)
                transcoding.out.append(XMLPropertyListText.header)
                try parser.transcodeXML(parser.trailer.topObject, depth: 0, indent: 0, into: &transcoding)
                transcoding.out.append(XMLPropertyListText.footer)
                if let drain {
                    transcoding.out.drain(drain)
                } else {
                    finished(transcoding.out.data())
                }
                return true
            } catch {
                return false
            }
        }
    }

    /// The binary file, or nil when the walk does not take it (see `transcodedXML`).
    public func transcodedBinary(_ data: Data) -> Data? {
        var written: Data?
        walkBinary(data) { file in written = file.data() }
        return written
    }

    /// Writes the binary file to `drain` a chunk of about `chunkSize` bytes at a time, once every
    /// object has been read: false, with nothing handed on, when the walk does not take the
    /// file (see `transcodedXML`).
    public func transcodeBinary(_ data: Data, chunkSize: Int = 1 << 20, to drain: (UnsafeRawBufferPointer) -> Void) -> Bool {
        walkBinary(data) { file in
            let chunk = max(chunkSize, 1)
            var from = 0
            while from < file.length {
                let size = min(chunk, file.length - from)
                drain(UnsafeRawBufferPointer(start: file.base + from, count: size))
                from += size
            }
        }
    }

    /// Writes the binary file into `output` as it is laid out, a few megabytes at a time
    /// (`handingOnEvery` bytes, about), so that a file's disk can start on it while the rest is
    /// read: references are filled in after their collection was handed on, and the places
    /// they changed written again at the end. Returns false when the walk does not take the
    /// file (see `transcodedXML`); `output` may then hold part of it, for the caller to discard.
    /// Should the file need writing again (see `walkBinary`), `output` is emptied first.
    /// The second half of a file CF wrote, laid out by a second thread (see
    /// `transcodeBinaryTop`), is handed on in such pieces once the halves are joined.
    public func transcodeBinary(_ data: Data, into output: some PositionedOutput, handingOnEvery: Int = 4 << 20) -> Bool {
        walkBinary(data, progressive: output, handOnEvery: handingOnEvery) { _ in }
    }

    /// Writes the file anew and hands it to `body`; false when the walk does not take the file.
    /// With `progressive`, the file is also written there as it is laid out (see
    /// `transcodeBinary(_:into:handingOnEvery:)`).
    ///
    /// The file is laid out as CF's writer lays out what CF's reader made of it: each object of
    /// the input that is reached becomes one object, scalars re-encoded as CF encodes them
    /// (4-byte reals kept so), booleans and UIDs written again at each place that holds them
    /// (see `transcodeRepeatedScalar`), in CF's order, with CF's widths. A file CF wrote comes
    /// back byte for byte (docs/parity.md counts them).
    ///
    /// References are written as the objects are numbered, so their width is chosen first: the
    /// width CF gives the input's object count. Where the output has another count (unreached
    /// objects, booleans and UIDs written again), the file is written a second time with the
    /// width of its own.
    ///
    /// With `mirrorsInput` (the default), the walk compares its output with the input until they
    /// differ and writes nothing before (see `BinaryPropertyListFileBuilder`): the same bytes,
    /// without an output buffer for a file CF wrote. Without, it writes from the start (tests
    /// hold the two to the same bytes).
    @discardableResult
    func walkBinary(_ data: Data, progressive: (any PositionedOutput)? = nil, handOnEvery: Int = 4 << 20,
                    mirrorsInput: Bool = true, _ body: (consuming OutputBuffer) -> Void) -> Bool {
        guard data.count <= options.maximumInputSize else { return false }
        return data.withUnsafeBytes { raw -> Bool in
            do throws(PropertyListError) {
                var parser = try BinaryPropertyListParser(raw, options: options, sharing: .refused)
                guard parser.isPlainFile else { return false }
                var refSize = BinaryPropertyListObjectTable.width(for: parser.trailer.objectCount)
                // At most two walks: with the input's width, and with the output's.
                for attempt in 0..<2 {
                    if attempt > 0 {
                        parser = try BinaryPropertyListParser(raw, options: options, sharing: .refused)
                        progressive?.discardWritten()
                    }
                    var transcoding = BinaryPropertyListParser.BinaryTranscoding(parser.trailer, refSize: refSize,
                                                                                  progressive: progressive, handOnEvery: handOnEvery,
                                                                                  source: mirrorsInput ? raw : nil)
                    // The first walk may lay out the second half on a second thread.
                    _ = try transcodeBinaryTop(&parser, source: raw, split: attempt == 0 && mirrorsInput && takesWorkers(data),
                                               into: &transcoding)
                    if transcoding.file.fitsReferenceSize {
                        body(transcoding.file.finish(keepingWhole: progressive == nil))
                        return true
                    }
                    refSize = BinaryPropertyListObjectTable.width(for: transcoding.file.objectCount)
                }
                // The same walk numbers the same objects: unreachable.
                return false
            } catch {
                return false
            }
        }
    }
}
