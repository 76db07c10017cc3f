import CBase64
import Foundation
import Testing

/// The vector base64 encoder JSONEmitter calls first (CBase64): whole 24-byte blocks while 28
/// bytes remain to be read, each Foundation's base64 of it, with slashes escaped or not. It
/// runs only where the CPU has AVX2; elsewhere it encodes nothing, which the first test holds.
@Suite struct Base64BlockEncoderTests {
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func withoutTheVectorUnitNothingIsEncodedAndTheSwiftCodeWritesItAll() {
        guard archivist_base64_vector_available() == 0 else { return }
        let input = Self.bytes(100, seed: 1)
        var output = [UInt8](repeating: 0, count: 400)
        var written = 0
        #expect(archivist_base64_encode_blocks(input, input.count, &output) == 0)
        #expect(archivist_base64_encode_blocks_escaping_slashes(input, input.count, &output, &written) == 0)
        #expect(written == 0)
    }

    @Test(.enabled(if: archivist_base64_vector_available() != 0, "the CPU has no AVX2"))
    func wholeBlocksAreFoundationsBase64WhileTwentyEightBytesRemain() {
        for count in 0...300 {
            let input = Self.bytes(count, seed: UInt64(count) &+ 7)
            var output = [UInt8](repeating: 0, count: count * 3 + 64)
            let encoded = archivist_base64_encode_blocks(input, count, &output)
            let expected = count >= 28 ? (count - 28) / 24 * 24 + 24 : 0
            #expect(encoded == expected, "\(count) bytes")
            let foundation = Array(Data(input[..<encoded]).base64EncodedString().utf8)
            #expect(Array(output[..<(encoded / 3 * 4)]) == foundation, "\(count) bytes")

            var written = 0
            let escapedEncoded = archivist_base64_encode_blocks_escaping_slashes(input, count, &output, &written)
            #expect(escapedEncoded == expected)
            let escaped = foundation.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
            #expect(Array(output[..<written]) == escaped, "\(count) bytes, slashes escaped")
        }
    }

    @Test(.enabled(if: archivist_base64_vector_available() != 0, "the CPU has no AVX2"))
    func blocksOfSlashesOnlyAreEscapedCharacterByCharacter() {
        let input = [UInt8](repeating: 0xFF, count: 52)  // "////…": two blocks of 32 slashes
        var output = [UInt8](repeating: 0, count: 200)
        var written = 0
        #expect(archivist_base64_encode_blocks_escaping_slashes(input, input.count, &output, &written) == 48)
        #expect(written == 128)
        #expect(Array(output[..<written]) == Array(String(repeating: "\\/", count: 64).utf8))
    }
}
