import Foundation
import Testing
@testable import PropertyList
import PropertyListXML

/// Inputs written to hurt the reader: allocation bombs, XML entity and encoding tricks, deep
/// nesting. Each must be refused with an error, or read to the right value, quickly and in little
/// memory. Nothing here measures time; a regression shows as a hang or a crash of the test run,
/// and the fuzz targets (docs/fuzzing.md) run the same readers under AddressSanitizer with a
/// 2 GB memory cap.
///
/// What other suites already cover is not repeated: the trailer rules and corrupt objects
/// (BinaryPropertyListReaderTests), entity declarations, billion laughs and external DTDs
/// (XMLPropertyListReaderTests), and the depth and value-count limits of each reader.
@Suite struct HostileInputTests {
    // MARK: - Allocation bombs: a small file that claims a huge size

    struct Bomb: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var code: PropertyListError.Code
        var testDescription: String { name }
    }

    /// A count of 2^62 as the integer object that follows a 0xF nibble.
    static let huge: [UInt8] = [0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]
    /// The largest count a count integer can hold, Int.max.
    static let largest: [UInt8] = [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    static let bombs: [Bomb] = [
        Bomb(name: "data of 2^62 bytes",
             bytes: magic + [0x4F] + huge          // object 0 at 8: data, count follows
                 + [8]                             // offset table at 18
                 + trailer(count: 1, tableOffset: 18), code: .truncated),
        Bomb(name: "ASCII string of Int.max bytes",
             bytes: magic + [0x5F] + largest       // object 0 at 8: ASCII string, count follows
                 + [8]                             // offset table at 18
                 + trailer(count: 1, tableOffset: 18), code: .truncated),
        Bomb(name: "UTF-16 string of Int.max units (twice that many bytes)",
             bytes: magic + [0x6F] + largest       // object 0 at 8: UTF-16 string, count follows
                 + [8]                             // offset table at 18
                 + trailer(count: 1, tableOffset: 18), code: .truncated),
        Bomb(name: "set of 2^62 references",
             bytes: magic + [0xCF] + huge          // object 0 at 8: set, count follows
                 + [8]                             // offset table at 18
                 + trailer(count: 1, tableOffset: 18), code: .truncated),
        Bomb(name: "dictionary of Int.max entries (twice that many references)",
             bytes: magic + [0xDF] + largest       // object 0 at 8: dictionary, count follows
                 + [8]                             // offset table at 18
                 + trailer(count: 1, tableOffset: 18), code: .malformed),
        Bomb(name: "dictionary of 2^60 entries with 8-byte references",
             bytes: magic + [0xDF] + [0x13, 0x10, 0, 0, 0, 0, 0, 0, 0]  // object 0 at 8: dictionary, count 2^60
                 + [8]                             // offset table at 18
                 + trailer(refSize: 8, count: 1, tableOffset: 18), code: .truncated),
        Bomb(name: "trailer claiming exactly the object limit",
             bytes: magic + [0x08]                 // object 0 at 8: false
                 + [8]                             // offset table at 9, far too short for the claim
                 + trailer(count: 50_000_000, tableOffset: 9), code: .malformed),
        Bomb(name: "trailer claiming 2^63 objects",
             bytes: magic + [0x08]                 // object 0 at 8: false
                 + [8]                             // offset table at 9
                 + trailer(count: 1 << 63, tableOffset: 9), code: .limitExceeded),
        Bomb(name: "offset table at 2^63",
             bytes: magic + [0x08]                 // object 0 at 8: false
                 + [8]                             // the real table, which the trailer does not name
                 + trailer(count: 1, tableOffset: 1 << 63), code: .malformed),
        // CF reads a UID of any width up to 16 bytes by its last eight, and refuses one past 32 bits.
        Bomb(name: "UID of 16 bytes",
             bytes: magic + [0x8F] + [UInt8](repeating: 0xFF, count: 16)  // object 0 at 8: UID
                 + [8]                             // offset table at 25
                 + trailer(count: 1, tableOffset: 25), code: .invalidValue),
    ]

    @Test(arguments: bombs)
    func aSmallBinaryFileClaimingAHugeSizeIsRefusedBeforeAnythingIsAllocated(_ bomb: Bomb) {
        #expect(bomb.bytes.count <= 100)
        let error = binaryError(bomb.bytes)
        #expect(error?.code == bomb.code, "\(String(describing: error))")
    }

    /// `levels` arrays, each holding the next one twice, around one string of `length` bytes:
    /// 2^levels copies of the string once expanded. Returns the file.
    static func doublingChain(levels: Int, length: Int) -> [UInt8] {
        precondition(levels + 1 < 256 && length < 65_536)
        var file = magic
        var offsets: [Int] = []
        for i in 0..<levels {
            offsets.append(file.count)
            file += [0xA2, UInt8(i + 1), UInt8(i + 1)]                    // [next, next]
        }
        offsets.append(file.count)
        file += [0x5F, 0x11, UInt8(length >> 8), UInt8(length & 0xFF)]    // ASCII string, 2-byte count
        file += [UInt8](repeating: UInt8(ascii: "x"), count: length)
        let table = file.count
        for o in offsets { file += [UInt8(o >> 8), UInt8(o & 0xFF)] }
        return file + trailer(offsetSize: 2, count: UInt64(levels + 1), tableOffset: UInt64(table))
    }

    @Test func sharedReferencesThatWouldExpandPastTheDecodedSizeLimitAreRefused() {
        // 2^23 copies of a 1000-byte string: 8 GB once expanded, from a file of 1.1 kB.
        // Its 2^24 values stay under the value limit, so the decoded-size limit must catch it.
        // (The expansion limit, which would stop it sooner, is lifted to test this one.)
        let file = Self.doublingChain(levels: 23, length: 1000)
        #expect(file.count < 1200)
        var options = PropertyListReadOptions()
        options.expansionLimit = .unlimited
        let error = binaryError(file, options)
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("bytes of content") == true, "\(String(describing: error))")
    }

    @Test func aSmallFileWhoseSharedArraysStandForMillionsOfValuesIsRefusedByTheExpansionLimit() throws {
        // 152 bytes standing for 2^21 copies of "x": within `maximumObjectCount`, and printed it
        // would be over a gigabyte of text. Lifting the expansion limit reads it.
        let file = Self.doublingChain(levels: 21, length: 1)
        #expect(file.count < 160)
        let error = binaryError(file)
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("values through shared references, the most a \(file.count)-byte file may stand for") == true,
                "\(String(describing: error))")
        var options = PropertyListReadOptions()
        options.expansionLimit = .unlimited
        #expect(try readBinary(file, options).typeName == "array")
    }

    @Test func aSmallFileWhoseSharedStringExpandsPastSixtyFourMebibytesIsRefusedByTheExpansionLimit() {
        // 2^16 copies of a 2,000-byte string: 131,072 values (under the value allowance) but
        // 131 MB of content from 2.2 kB.
        let file = Self.doublingChain(levels: 16, length: 2000)
        let error = binaryError(file)
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("bytes of content through shared references, the most a") == true, "\(String(describing: error))")
    }

    @Test func aLargeFileThatRepeatsAUniquedStringReadsWithinTheExpansionLimit() throws {
        // What CF writes for 100,000 records holding the same 1,000-byte text: the string is
        // stored once, so 100 MB of content come from a file of about 200 kB.
        let text = String(repeating: "a", count: 1000)
        let value = PropertyListValue.array(Array(repeating: .string(text), count: 100_000))
        let data = BinaryPropertyListWriter().write(value)
        #expect(data.count < 250_000)
        #expect(try BinaryPropertyListReader().read(data) == value)
    }

    @Test func sharedReferencesWithinTheLimitsReadAsTheExpandedTree() throws {
        // 2^16 copies of the string: read, and equal to the expanded tree.
        let value = try readBinary(Self.doublingChain(levels: 16, length: 3))
        var node = value
        for _ in 0..<16 {
            guard case .array(let pair) = node, pair.count == 2, pair[0] == pair[1] else {
                Issue.record("not a doubling chain: \(node.typeName)")
                return
            }
            node = pair[0]
        }
        #expect(node == "xxx")
    }

    // MARK: - Size limits across the readers

    enum Reader: String, CaseIterable, Sendable {
        case binary, xml, openStep, json, detected

        func read(_ data: Data, _ options: PropertyListReadOptions) throws(PropertyListError) -> PropertyListValue {
            switch self {
            case .binary: try BinaryPropertyListReader(options: options).read(data)
            case .xml: try XMLPropertyListReader(options: options).read(data)
            case .openStep: try OpenStepPropertyListReader(options: options).read(data)
            case .json: try JSONPropertyListReader(options: options).read(data)
            case .detected: try PropertyListReader(options: options).read(data).value
            }
        }
    }

    @Test(arguments: Reader.allCases)
    func everyReaderRefusesAnInputOverTheSizeLimitUnread(_ reader: Reader) {
        var options = PropertyListReadOptions()
        options.maximumInputSize = 16
        // Seventeen bytes that no reader would accept anyway: the size is checked first.
        let error = #expect(throws: PropertyListError.self) { try reader.read(Data(repeating: 0xFF, count: 17), options) }
        #expect(error?.code == .limitExceeded)
    }

    @Test(arguments: [
        (Reader.json, #"["12345678", "9"]"#, false),
        (.json, #"["12345678"]"#, true),
        (.openStep, #"(12345678, 9)"#, false),
        (.openStep, #"(12345678)"#, true),
        (.openStep, #"<0001020304050607 08>"#, false),
    ])
    func theTextReadersCountDecodedBytesAgainstTheLimit(reader: Reader, text: String, accepted: Bool) {
        var options = PropertyListReadOptions()
        options.maximumDecodedSize = 8
        let result = Result { () throws(PropertyListError) in try reader.read(Data(text.utf8), options) }
        switch result {
        case .success: #expect(accepted)
        case .failure(let error): #expect(!accepted && error.code == .limitExceeded, "\(error)")
        }
    }

    @Test func aBinaryFileNested100000DeepIsRefusedAtTheDepthLimit() {
        // 100,000 one-element arrays, each holding the next, around an empty one (3-byte refs).
        let depth = 100_000
        var file = magic
        var offsets: [Int] = []
        for i in 0..<depth {
            offsets.append(file.count)
            let next = i + 1
            file += [0xA1, UInt8(next >> 16), UInt8((next >> 8) & 0xFF), UInt8(next & 0xFF)]
        }
        offsets.append(file.count)
        file += [0xA0]
        let table = file.count
        for o in offsets { file += [UInt8(o >> 16), UInt8((o >> 8) & 0xFF), UInt8(o & 0xFF)] }
        file += trailer(offsetSize: 3, refSize: 3, count: UInt64(depth + 1), tableOffset: UInt64(table))
        let error = binaryError(file)
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("nesting deeper than 512") == true)
    }

    // MARK: - XML: external entities, inclusion, entity expansion

    /// The first line of /etc/passwd on any Linux or macOS system: must never reach a value or a message.
    static let passwdMarker = "root:"

    @Test(arguments: [
        // A general entity naming the file, used in a string.
        #"<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><plist><string>&xxe;</string></plist>"#,
        // The same entity, used in an attribute.
        #"<!DOCTYPE plist [<!ENTITY xxe SYSTEM "/etc/passwd">]><plist version="&xxe;"><true/></plist>"#,
        // A public identifier with a system fallback.
        #"<!DOCTYPE plist [<!ENTITY xxe PUBLIC "-//X//Y" "file:///etc/passwd">]><plist><string>&xxe;</string></plist>"#,
        // A parameter entity that would pull the file into the DTD.
        #"<!DOCTYPE plist [<!ENTITY % xxe SYSTEM "file:///etc/passwd"> %xxe;]><plist><true/></plist>"#,
        // The file named as the external DTD, and an entity it would have to define.
        #"<!DOCTYPE plist SYSTEM "file:///etc/passwd"><plist><string>&root;</string></plist>"#,
        // XInclude of the file as text.
        #"<plist xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd" parse="text"/></plist>"#,
        #"<plist><array><include xmlns="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/></array></plist>"#,
    ])
    func anXMLDocumentCannotReadALocalFile(xml: String) {
        for reader in [Reader.xml, .detected] {
            let result = Result { () throws(PropertyListError) in try reader.read(Data(xml.utf8), .default) }
            switch result {
            case .success(let value):
                Issue.record("read as \(value)")
            case .failure(let error):
                #expect(!error.description.contains(Self.passwdMarker), "\(error)")
            }
        }
    }

    @Test func anXMLDocumentNamingAnExternalDTDReadsWithoutFetchingIt() throws {
        // The DTD is never loaded, so the file's content cannot matter: the document reads as is.
        let xml = #"<!DOCTYPE plist SYSTEM "file:///etc/passwd"><plist><string>ok</string></plist>"#
        #expect(try XMLPropertyListReader().read(Data(xml.utf8)) == "ok")
    }

    @Test func theQuadraticBlowupIsRefusedAtTheDeclaration() {
        // One 10 kB entity used 10,000 times: 100 MB if it were expanded.
        let entity = String(repeating: "a", count: 10_000)
        let xml = "<!DOCTYPE plist [<!ENTITY a \"\(entity)\">]><plist><string>"
            + String(repeating: "&a;", count: 10_000) + "</string></plist>"
        // CF refuses any internal DTD subset (CFPropertyList.c, skipDTD), so the declaration is
        // never read, let alone expanded.
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(Data(xml.utf8)) }
        #expect(error?.message.contains("internal subset") == true)
    }

    // MARK: - XML: unusual encodings

    struct Encoded: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        /// The string read, or nil when the document must be refused.
        var expected: String?
        var testDescription: String { name }
    }

    static func utf16LE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
    static func utf16BE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

    static let encoded: [Encoded] = [
        // CF takes a NUL in the first two bytes for UTF-16 without a mark and skips those two
        // bytes as if they were one: the "<" is lost, and the document is refused.
        Encoded(name: "UTF-16LE without a byte-order mark, declared",
                bytes: utf16LE(#"<?xml version="1.0" encoding="UTF-16"?><plist><string>é</string></plist>"#), expected: nil),
        Encoded(name: "UTF-16BE without a byte-order mark or declaration",
                bytes: utf16BE(#"<plist><string>é</string></plist>"#), expected: nil),
        Encoded(name: "UTF-16LE byte-order mark, declared UTF-8",
                bytes: [0xFF, 0xFE] + utf16LE(#"<?xml version="1.0" encoding="UTF-8"?><plist><string>é</string></plist>"#), expected: "é"),
        // The half code unit after the end is dropped, as libxml2 does with trailing bytes it cannot decode.
        Encoded(name: "UTF-16 with half a code unit after the end",
                bytes: [0xFE, 0xFF] + utf16BE(#"<plist><string>é</string></plist>"#) + [0x00], expected: "é"),
        Encoded(name: "UTF-16 cut in the middle of a code unit inside the document",
                bytes: [0xFE, 0xFF] + utf16BE(#"<plist><string>é"#) + [0x00], expected: nil),
        Encoded(name: "UTF-16 with a lone surrogate",
                bytes: [0xFE, 0xFF] + utf16BE("<plist><string>") + [0xD8, 0x00] + utf16BE("</string></plist>"), expected: nil),
        Encoded(name: "UTF-32 with a code point above U+10FFFF",
                bytes: [0x00, 0x00, 0xFE, 0xFF] + "<plist><string>".unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value)] }
                    + [0x00, 0x11, 0x00, 0x00] + "</string></plist>".unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value)] }, expected: nil),
        Encoded(name: "UTF-8 with an overlong '<'",
                bytes: Array("<plist><string>".utf8) + [0xC0, 0xBC] + Array("</string></plist>".utf8), expected: nil),
        Encoded(name: "an encoding no one has heard of",
                bytes: Array(#"<?xml version="1.0" encoding="x-no-such-encoding"?><plist><string>é</string></plist>"#.utf8), expected: nil),
        Encoded(name: "UTF-7, which can spell markup in letters",
                bytes: Array(#"<?xml version="1.0" encoding="UTF-7"?><plist><string>+AOk-</string></plist>"#.utf8), expected: "é"),
        // CF looks for an encoding only after "<?xml" in ASCII: EBCDIC is read as UTF-8 and refused.
        Encoded(name: "EBCDIC (IBM037)",
                bytes: [0x4C, 0x6F, 0xA7, 0x94, 0x93, 0x40, 0xA5, 0x85, 0x99, 0xA2, 0x89, 0x96, 0x95, 0x7E, 0x7F, 0xF1, 0x4B, 0xF0, 0x7F,  // <?xml version="1.0"
                        0x40, 0x85, 0x95, 0x83, 0x96, 0x84, 0x89, 0x95, 0x87, 0x7E, 0x7F, 0xC9, 0xC2, 0xD4, 0xF0, 0xF3, 0xF7, 0x7F, 0x6F, 0x6E,  //  encoding="IBM037"?>
                        0x4C, 0x97, 0x93, 0x89, 0xA2, 0xA3, 0x6E, 0x4C, 0xA2, 0xA3, 0x99, 0x89, 0x95, 0x87, 0x6E,  // <plist><string>
                        0x51,  // é
                        0x4C, 0x61, 0xA2, 0xA3, 0x99, 0x89, 0x95, 0x87, 0x6E, 0x4C, 0x61, 0x97, 0x93, 0x89, 0xA2, 0xA3, 0x6E],  // </string></plist>
                expected: nil),
        Encoded(name: "Shift_JIS",
                bytes: Array(#"<?xml version="1.0" encoding="Shift_JIS"?><plist><string>"#.utf8) + [0x93, 0xFA, 0x96, 0x7B]  // 日本
                    + Array("</string></plist>".utf8), expected: "日本"),
    ]

    @Test(arguments: encoded)
    func anXMLDocumentInAnUnusualEncodingIsReadOrRefused(_ input: Encoded) {
        let result = Result { () throws(PropertyListError) in try XMLPropertyListReader(options: .coreFoundation).read(Data(input.bytes)) }
        switch (result, input.expected) {
        case (.success(let value), let expected?): #expect(value == .string(expected))
        case (.success(let value), nil): Issue.record("read as \(value)")
        case (.failure(let error), let expected?): Issue.record("refused (\(error)); expected \(expected)")
        case (.failure, nil): break
        }
    }
}
