import Foundation
import PropertyList
import Testing
@testable import Sweep

/// What the first bytes of a file say, before anything reads it.
@Suite struct ItemSnifferTests {
    static func sniff(_ text: String, json: Bool = false) -> ItemSniffer.Sniff {
        ItemSniffer.sniff(Array(text.utf8), includesJSON: json)
    }

    @Test func binaryAndXMLPlistsAreRecognizedByTheirSignature() {
        #expect(Self.sniff("bplist00\u{0}") == .propertyList(.binary, strong: true))
        #expect(Self.sniff("<?xml version=\"1.0\"?>\n<!DOCTYPE plist PUBLIC \"x\">\n<plist version=\"1.0\"><dict/></plist>")
                == .propertyList(.xml, strong: true))
        #expect(Self.sniff("  <plist><array/></plist>") == .propertyList(.xml, strong: true))
    }

    @Test func xmlThatIsNotAPlistIsNoise() {
        #expect(Self.sniff("<?xml version=\"1.0\"?><svg/>") == .noise)
        #expect(Self.sniff("<!DOCTYPE html><html></html>") == .noise)
    }

    @Test func openStepIsRecognizedByItsFirstToken() {
        #expect(Self.sniff("{ a = b; }") == .propertyList(.openStep, strong: false))
        #expect(Self.sniff("( 1, 2 )") == .propertyList(.openStep, strong: false))
        #expect(Self.sniff("<0fbd 77>") == .propertyList(.openStep, strong: false))
        #expect(Self.sniff("// !$*UTF8*$!\n{ archiveVersion = 1; }") == .propertyList(.openStep, strong: false))
        #expect(Self.sniff("STRINGS_ENTRY = \"Whatever\";") == .propertyList(.openStep, strong: false))
        #expect(Self.sniff("\"key\" = \"value\";") == .propertyList(.openStep, strong: false))
    }

    @Test func ordinaryTextIsNoise() {
        #expect(Self.sniff("true") == .noise)
        #expect(Self.sniff("\"a\",\"b\"\n1,2") == .noise)
        #expect(Self.sniff("/* license */\n#include <stdio.h>") == .noise)
        #expect(Self.sniff("// comment\nfunction f() {}") == .noise)
        #expect(Self.sniff("") == .noise)
    }

    @Test func jsonIsNoiseUnlessAskedFor() {
        #expect(Self.sniff("{\"a\": 1}") == .noise)
        #expect(Self.sniff("[1, 2]") == .noise)
        #expect(Self.sniff("{\"a\": 1}", json: true) == .propertyList(.json, strong: false))
    }

    @Test func databasesAndContainersAreRecognizedByTheirSignature() {
        #expect(ItemSniffer.sniff(Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0, count: 84), includesJSON: false) == .sqlite)
        #expect(ItemSniffer.sniff([0x50, 0x4B, 0x03, 0x04, 0, 0], includesJSON: false) == .container)
        #expect(ItemSniffer.sniff([0x1F, 0x8B, 0x08, 0], includesJSON: false) == .compressed)
        #expect(ItemSniffer.sniff(Array("BZh9".utf8), includesJSON: false) == .compressed)
        var tar = [UInt8](repeating: 0, count: 512)
        tar.replaceSubrange(257..<262, with: Array("ustar".utf8))
        #expect(ItemSniffer.sniff(tar, includesJSON: false) == .container)
    }

    @Test func utf16TextIsNarrowedBeforeItIsJudged() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "{ path = \"x\"; }".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(ItemSniffer.sniff(bytes, includesJSON: false) == .propertyList(.openStep, strong: false))
    }
}
