import Foundation
import Testing
@testable import PropertyList

/// `DecimalText.double` reads what `Double(String)` reads, bit for bit, or declines.
@Suite struct DecimalTextTests {
    func read(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { DecimalText.double($0) }
    }

    /// Whether the fast reading is `Double(String)`'s, where it reads at all.
    func agrees(_ text: String) -> Bool {
        guard let fast = read(text) else { return true }
        guard let slow = Double(text) else { return false }
        return fast.bitPattern == slow.bitPattern
    }

    @Test func theShortestSpellingsOfRandomDoublesReadBackExactly() {
        // SplitMix64: the same values on every run.
        var state: UInt64 = 0x1234_5678_9ABC_DEF0
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var fastReads = 0
        for i in 0..<20_000 {
            let value: Double = switch i % 4 {
            case 0: Double(next() >> 11) / Double(1 << 53)                       // [0, 1)
            case 1: Double(Float(Double(next() % 256) / 255))                     // a color component
            case 2: Double(bitPattern: next())                                    // any double
            default: (Double(next() >> 11) / Double(1 << 53) - 0.5) * 1e6         // a measurement
            }
            guard value.isFinite else { continue }
            let text = String(value)
            #expect(agrees(text), "\(text)")
            if let fast = read(text) {
                fastReads += 1
                #expect(fast == value, "\(text) reads back as another value")
            }
        }
        // Every color component, and the shorter spellings of the others, take the fast path.
        #expect(fastReads > 5_000)
    }

    @Test func floatSpellingsReadAsDoubleReadsThem() {
        for i in 0...1_000 {
            let f = Float(i) / 1_000
            #expect(agrees(String(f)), "\(f)")
            #expect(agrees(String(-f)), "\(-f)")
        }
        for text in ["1e-05", "1.5e+10", "3.4028235e+38", "1.0", "0.0", "-0.0"] { #expect(agrees(text), "\(text)") }
    }

    @Test func edgeCasesReadExactlyOrAreLeftToStrtod() {
        #expect(read("0")?.bitPattern == 0)
        #expect(read("-0.0")?.bitPattern == (-0.0 as Double).bitPattern)
        #expect(read("9007199254740992") == 9_007_199_254_740_992)
        #expect(read("9007199254740993") == nil, "above 2^53: strtod rounds it")
        #expect(read("1e22") == 1e22)
        #expect(read("1e23") == nil, "10^23 is not exact in a double")
        #expect(read("1e-22") == 1e-22)
        #expect(read("12345678901234567890") == nil, "20 significant digits")
        #expect(read("0.00000000000000000000000000001") == nil)
        for text in ["", "-", ".5", "1.", "1e", "1e+", "--1", "1x", "inf", "nan", "0x1p3", " 1", "1 "] {
            #expect(read(text) == nil, "\(text)")
        }
        for text in ["0.1", "0.2", "0.3", "123.456", "1e-7", "2.5e-3", "1000000.0000001"] { #expect(agrees(text), "\(text)") }
    }

    @Test func jsonReadsRealsAsItDidWithStrtod() throws {
        let text = "[0.2235294133424759, 1e-05, -0.0, 1.7976931348623157e308, 5e-324, 123456789012345678901234567890.5, 0.1]"
        let value = try JSONPropertyListReader().read(Data(text.utf8))
        let expected: [Double] = [0.2235294133424759, 1e-05, -0.0, 1.7976931348623157e308, 5e-324, 123456789012345678901234567890.5, 0.1]
        guard case .array(let elements) = value else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == expected.count)
        for (element, number) in zip(elements, expected) {
            guard case .real(let r) = element else {
                Issue.record("\(element) is not a real")
                continue
            }
            #expect(r.bitPattern == number.bitPattern)
        }
    }
}
