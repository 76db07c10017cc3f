import Foundation
import PropertyList

/// `--round-trip`: each Apple-written binary file of the corpus (INDEX.tsv's producer "Apple",
/// format bplist00), read and written back as binary, compared byte for byte with the original:
/// through the tree (`PropertyListReader`, then `BinaryPropertyListWriter`) and through the
/// converter (`BinaryPropertyListConverter.binary`, what `convert --to binary` runs), and
/// through the tree and `BinaryPropertyListLayoutWriter` (what an edit writes). Extra
/// files (`--round-trip FILE…`) are counted apart.
struct RoundTrip {
    struct Result {
        var files = 0
        var throughTree = 0
        var throughConverter = 0
        var throughLayoutWriter = 0
        var differing: [(path: String, why: String)] = []
    }

    static func check(_ original: Data, path: String, into result: inout Result) {
        result.files += 1
        var tree: Data?
        var laidOut: Data?
        if let (value, format) = try? PropertyListReader().read(original), format == .binary {
            tree = BinaryPropertyListWriter().write(value)
            laidOut = BinaryPropertyListLayoutWriter(original: original).write(value)
        }
        if laidOut == original { result.throughLayoutWriter += 1 }
        let converted = try? BinaryPropertyListConverter().binary(original)
        if tree == original { result.throughTree += 1 }
        if converted == original { result.throughConverter += 1 }
        if tree != original || converted != original {
            result.differing.append((path, describe(original, tree) + "; converter: " + describe(original, converted)))
        }
    }

    /// Where two files first differ, and their sizes and trailers.
    static func describe(_ original: Data, _ written: Data?) -> String {
        guard let written else { return "not written" }
        if written == original { return "same" }
        let a = [UInt8](original), b = [UInt8](written)
        let first = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        func trailer(_ x: [UInt8]) -> String {
            guard x.count >= 32 else { return "?" }
            let t = Array(x.suffix(32))
            func be(_ r: Range<Int>) -> UInt64 { t[r].reduce(0) { $0 << 8 | UInt64($1) } }
            return "offsets \(t[6]) refs \(t[7]) objects \(be(8..<16)) top \(be(16..<24)) table \(be(24..<32))"
        }
        return "\(a.count) → \(b.count) bytes, first difference at \(first); original \(trailer(a)), written \(trailer(b))"
    }

    static func run(corpus: ParityCorpus?, extraFiles: [String], verbose: Bool) -> Int32 {
        var corpusResult = Result()
        if let corpus {
            for entry in corpus.entries where entry.producer == "Apple" && entry.format == "bplist00" {
                guard let data = FileManager.default.contents(atPath: entry.url.path) else { continue }
                check(data, path: entry.path, into: &corpusResult)
            }
            print("Apple-written binary files of the corpus: \(corpusResult.files); identical through the tree: \(corpusResult.throughTree); through the converter: \(corpusResult.throughConverter); through the tree and the layout writer (what an edit writes): \(corpusResult.throughLayoutWriter)")
        } else {
            print("archivist-parity: no corpus; no round trips")
        }
        var extra = Result()
        for path in extraFiles {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            check(data, path: path, into: &extra)
        }
        if !extraFiles.isEmpty {
            print("Other files: \(extra.files); identical through the tree: \(extra.throughTree); through the converter: \(extra.throughConverter); through the layout writer: \(extra.throughLayoutWriter)")
        }
        if verbose {
            for d in corpusResult.differing + extra.differing { print("  \(d.path): \(d.why)") }
        }
        return 0
    }
}
