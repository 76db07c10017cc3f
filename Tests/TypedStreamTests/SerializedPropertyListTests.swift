import Foundation
import Testing
import TypedStream

/// NeXT's serialized property lists (NSFont's name inside a typedstream), built here byte by
/// byte as the format's documentation in `SerializedPropertyList` lays them out.
struct SerializedPropertyListTests {
    /// A 32-bit little-endian word.
    static func word(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    @Test func aNeXTSTEPStringReadsHighBytesInNeXTSTEPsCharacterSetAndTheTwoUnassignedOnesAsReplacementCharacters() throws {
        // Type 5 (a NeXTSTEP string), 5 bytes, 3 bytes of padding: `A`, 0x80 (no-break space),
        // 0xE9 (Ø), 0xFE and 0xFF (which NeXTSTEP leaves unassigned).
        let bytes = Self.word(5) + Self.word(5) + [0x41, 0x80, 0xE9, 0xFE, 0xFF] + [0, 0, 0]
        #expect(try SerializedPropertyList.read(Data(bytes)) == .string("A\u{A0}\u{D8}\u{FFFD}\u{FFFD}"))
    }
}
