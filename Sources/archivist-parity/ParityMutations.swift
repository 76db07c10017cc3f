import Foundation
import PropertyList

/// The structured mutations of one corpus file, each with a stable name; see the mutation
/// types for what each family changes.
enum ParityMutations {
    /// Files larger than this get only their cheapest mutations: each input costs its size.
    static let fullMutationLimit = 1 << 16

    static func mutations(of bytes: [UInt8], entry: ParityCorpus.Entry) -> [(name: String, bytes: [UInt8])] {
        var random = ParityRandom(seed: entry.path)
        var out: [(name: String, bytes: [UInt8])] = []
        let small = bytes.count <= fullMutationLimit
        if bytes.starts(with: Array("bplist".utf8)) {
            var binary = BinaryMutations(bytes, random: random)
            out += binary.all()
        } else if small, var xml = XMLMutations(bytes, random: random), looksLikeXML(bytes) {
            out += xml.all()
        } else if small {
            var openStep = OpenStepMutations(random: random)
            openStep.textual(bytes)
            out += openStep.out
        }
        guard small else { return out }
        // The file's value written as XML (by Archivist's writer) and as OpenStep, mutated.
        let value = try? PropertyListReader().read(Data(bytes)).value
        if let value {
            if !looksLikeXML(bytes), let xmlData = try? XMLPropertyListWriter().write(value), xmlData.count <= fullMutationLimit,
               var xml = XMLMutations([UInt8](xmlData), random: random) {
                out += xml.all().map { ("asXML." + $0.name, $0.bytes) }
            }
            var openStep = OpenStepMutations(random: random)
            openStep.rendered(value, budget: 20)
            out += openStep.out
        }
        _ = random.next()
        return out
    }

    /// Inputs written by hand rather than derived from a file: OpenStep's escapes and grammar.
    static func generated() -> [(name: String, bytes: [UInt8])] {
        var openStep = OpenStepMutations(random: ParityRandom(seed: "generated"))
        openStep.grammar()
        return openStep.out
    }

    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        return i + 1 < bytes.count && bytes[i] == UInt8(ascii: "<") && [UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "p")].contains(bytes[i + 1])
    }
}
