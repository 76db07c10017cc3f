import Foundation
import Testing
@testable @_spi(Writers) import PropertyList
import PropertyListXML

private func xml(_ value: PropertyListValue) throws(PropertyListError) -> String {
    String(decoding: try XMLPropertyListWriter().write(value), as: UTF8.self)
}

/// The lines between `<plist version="1.0">` and `</plist>`.
private func body(_ value: PropertyListValue) throws(PropertyListError) -> [String] {
    let lines = try xml(value).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return Array(lines.dropFirst(3).dropLast(2))
}

/// `value` nested in `depth` single-element arrays, so that it is written at that indentation.
private func nested(_ value: PropertyListValue, depth: Int) -> PropertyListValue {
    (0..<depth).reduce(value) { inner, _ in .array([inner]) }
}

/// Our value as the object graph `PropertyListSerialization` takes.
private func foundationPropertyList(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let s): return s
    case .integer(let i):
        if let v = i.int64Value { return NSNumber(value: v) }
        return NSNumber(value: i.uint64Value ?? 0)
    case .real(let r): return NSNumber(value: r)
    case .bool(let b): return NSNumber(value: b)
    case .date(let d): return d
    case .data(let d): return d
    case .array(let a), .set(let a): return a.map(foundationPropertyList)
    case .dictionary(let d):
        var out: [String: Any] = [:]
        for (k, v) in d { out[k.stringValue ?? ""] = foundationPropertyList(v) }
        return out
    case .uid, .null, .invalidUTF16String: return "not representable in Foundation"
    }
}

@Suite struct XMLPropertyListWriterTests {
    // MARK: - Layout

    @Test func aSmallDocumentIsWrittenExactlyAsCFWritesIt() throws {
        let value: PropertyListValue = [
            "f": "x<y>&z\"'",
            "b": [1, "two", 3.5, true, false],
            "a": .data(Data([0, 1, 2])),
            "e": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "d": [],
            "c": [:],
            "g": "",
        ]
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<data>
            \tAAEC
            \t</data>
            \t<key>b</key>
            \t<array>
            \t\t<integer>1</integer>
            \t\t<string>two</string>
            \t\t<real>3.5</real>
            \t\t<true/>
            \t\t<false/>
            \t</array>
            \t<key>c</key>
            \t<dict/>
            \t<key>d</key>
            \t<array/>
            \t<key>e</key>
            \t<date>2001-01-01T00:00:00Z</date>
            \t<key>f</key>
            \t<string>x&lt;y&gt;&amp;z"'</string>
            \t<key>g</key>
            \t<string></string>
            </dict>
            </plist>

            """
        #expect(try xml(value) == expected)
    }

    @Test func aScalarRootIsWrittenAtNoIndentation() throws {
        #expect(try body("alone") == ["<string>alone</string>"])
        #expect(try body(.data(Data())) == ["<data>", "</data>"])
    }

    @Test func aUIDIsWrittenAsACFUIDDictionary() throws {
        #expect(try body([.uid(7)]) == ["<array>", "\t<dict>", "\t\t<key>CF$UID</key>", "\t\t<integer>7</integer>", "\t</dict>", "</array>"])
        #expect(try XMLPropertyListReader().read(XMLPropertyListWriter().write([.uid(0), .uid(UInt64(UInt32.max))])) == [.uid(0), .uid(UInt64(UInt32.max))])
        // CF keeps a UID's low 32 bits.
        #expect(try XMLPropertyListReader().read(XMLPropertyListWriter().write([.uid(1 << 32 | 5)])) == [.uid(5)])
    }

    @Test func aSetIsWrittenAsAnArray() throws {
        #expect(try body(.set([1])) == ["<array>", "\t<integer>1</integer>", "</array>"])
        #expect(try body(.set([])) == ["<array/>"])
    }

    @Test func duplicateKeysAreAllWrittenInTheirOrder() throws {
        let value = PropertyListValue.dictionary(PropertyListDictionary([("b", 1), ("a", 2), ("b", 3)]))
        #expect(try body(value) == ["<dict>", "\t<key>a</key>", "\t<integer>2</integer>", "\t<key>b</key>", "\t<integer>1</integer>", "\t<key>b</key>", "\t<integer>3</integer>", "</dict>"])
    }

    @Test func dictionariesSharingOneKeysArrayAreEachSortedAndAnErrorNamesTheirPath() throws {
        // The binary reader gives records of one shape one keys array; the writer sorts it once.
        let keys: [PropertyListValue] = ["b", "a"]
        let records = PropertyListValue.array((0..<3).map { i in
            .dictionary(PropertyListDictionary(keys: keys, values: [.integer(PropertyListInteger(i)), .bool(i == 1)]))
        })
        #expect(try body(records) == ["<array>",
                                      "\t<dict>", "\t\t<key>a</key>", "\t\t<false/>", "\t\t<key>b</key>", "\t\t<integer>0</integer>", "\t</dict>",
                                      "\t<dict>", "\t\t<key>a</key>", "\t\t<true/>", "\t\t<key>b</key>", "\t\t<integer>1</integer>", "\t</dict>",
                                      "\t<dict>", "\t\t<key>a</key>", "\t\t<false/>", "\t\t<key>b</key>", "\t\t<integer>2</integer>", "\t</dict>",
                                      "</array>"])
        let broken = PropertyListValue.array([.dictionary(PropertyListDictionary(keys: keys, values: [1, 2])),
                                              .dictionary(PropertyListDictionary(keys: keys, values: [3, .null]))])
        #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().write(broken) }
        do {
            _ = try XMLPropertyListWriter().write(broken)
        } catch {
            #expect(error.keyPath == ["[1]", "a"])
        }
    }

    /// `%.17g` as glibc prints it, the reference the writer's own formatting must match.
    static func printf17g(_ r: Double) -> String {
        String(format: "%.17g", r)
    }

    @Test func realsAreWrittenAsPrintfWritesThemWithSeventeenDigits() throws {
        var samples: [Double] = [1, -1, 0.1, 0.5, 1.5, 100, 1e16, 1e17, 9.999999999999999e16, 123456789012345678, 1e-5, 1e-4,
                                 0.0001234, 1e21, 1e22, 1e23, 1e-300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                                 4.35, 0.3, 2.5, 1.0 / 3, 2.0 / 3, 1e15 + 0.5, 9007199254740993, 0.000099999999999999991]
        // Reals spread over every binade and of every digit count, from a fixed seed.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for _ in 0..<100_000 {
            let r = Double(bitPattern: next())
            if r.isFinite, r != 0 { samples.append(r) }
        }
        for i in 0..<2_000 { samples.append(Double(i) / 997) }
        var mismatches: [String] = []
        for r in samples.flatMap({ [$0, -$0] }) {
            var out = OutputBuffer()
            XMLRealFormat.append(r, to: &out)
            let ours = String(decoding: out.bytes(0..<out.length), as: UTF8.self)
            let expected = Self.printf17g(r)
            if ours != expected, mismatches.count < 10 { mismatches.append("\(r.bitPattern): \(ours) != \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// `%.17g` by glibc's `vsnprintf` itself, as the writer wrote every real before it had a
    /// formatter of its own (its `appendWithLibc`, which is still the path for what the
    /// integers cannot hold).
    static func libc17g(_ r: Double) -> String {
        var out = OutputBuffer()
        XMLRealFormat.appendWithLibc(r, to: &out)
        return String(decoding: out.bytes(0..<out.length), as: UTF8.self)
    }

    /// Reals where the integer formatter could slip: every power of ten a double reaches and
    /// its neighbours, the ends of each path (10^16, 10^17, 2^53, 2^64, 2^128, 10^-11, 2^-126),
    /// subnormals, exact ties at the 17th digit and the doubles either side of them, and
    /// random reals of the magnitudes files hold.
    static func awkwardReals() -> [Double] {
        var samples: [Double] = [5e-324, 1e-323, 2.2250738585072014e-308, 2.2250738585072009e-308, 1.7976931348623157e308,
                                 1e16, 1e17, 9007199254740992, 9007199254740993, 18446744073709551616, 0x1p128, 0x1p127,
                                 340282366920938463463374607431768211455, 1e-11, 1e-39, 1e-38, 0x1p-126, 0.1, 0.3, 2.0 / 3]
        for k in -340...308 {
            let p = Double("1e\(k)") ?? 0
            guard p != 0, p.isFinite else { continue }
            samples += [p, p.nextUp, p.nextDown, p.nextUp.nextUp, p.nextDown.nextDown, p * 5, p * 9.5, p * 0.5]
        }
        for b in [52, 53, 54, 56, 57, 63, 64, 65, 126, 127, 128, 129] {
            let p = Double(sign: .plus, exponent: b, significand: 1)
            samples += [p, p.nextUp, p.nextDown]
        }
        var generator = SplitMix(state: 0x0DDB_A11)
        // Exact ties: 15 whole digits and eighths, 16 whole digits and quarters, written
        // with 18 significant digits, the last a 5; and the doubles either side.
        for _ in 0..<20_000 {
            let eighths = Double(generator.next() % 900_000_000_000_000 + 100_000_000_000_000) + Double(generator.next() % 4 * 2 + 1) / 8
            let quarters = Double(generator.next() % 9_000_000_000_000_000 + 1_000_000_000_000_000) + Double(generator.next() % 2 * 2 + 1) / 4
            for tie in [eighths, quarters, eighths / 1024, quarters * 64] { samples += [tie, tie.nextUp, tie.nextDown] }
        }
        // Subnormals.
        for _ in 0..<5_000 { samples.append(Double(bitPattern: generator.next() >> 12 | 1)) }
        // Full-precision reals of every magnitude from 10^-45 to 10^42, as files hold them.
        for _ in 0..<200_000 {
            let unit = Double(generator.next() >> 11) * 0x1p-53
            let k = Int(generator.next() % 88) - 45
            samples.append(unit * (Double("1e\(k)") ?? 1))
        }
        for _ in 0..<20_000 {
            let unit = Double(generator.next() >> 11) * 0x1p-53
            samples += [unit, unit * 180 - 90, unit * 360 - 180, 500_000_000 + unit * 300_000_000]
        }
        return samples.filter { $0 != 0 && $0.isFinite }
    }

    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func realsAreWrittenAsTheCLibraryWritesThemAtEveryAwkwardValueAndAcrossMagnitudes() throws {
        let samples = Self.awkwardReals()
        #expect(samples.count > 300_000)
        var mismatches: [String] = []
        for r in samples.flatMap({ [$0, -$0] }) {
            var out = OutputBuffer()
            XMLRealFormat.append(r, to: &out)
            let ours = String(decoding: out.bytes(0..<out.length), as: UTF8.self)
            let expected = Self.libc17g(r)
            if ours != expected, mismatches.count < 10 { mismatches.append("\(r.bitPattern): \(ours) != \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func theIntegerFormatterTakesEveryRealFrom2ToTheMinus126To2To128() {
        // The C library is left only what the integers cannot hold.
        for r in [0x1p-126, 1.2e-38, 1e-20, 1e-11, 0.1, 1, 1e16, 1e17, 1e20, 1e38, 0x1p128.nextDown] {
            #expect(XMLRealFormat.digits(r) != nil, "\(r)")
        }
        for r in [0x1p-126.nextDown, 1e-38, 1e-40, 5e-324, 2.2250738585072009e-308, 0x1p128, 1e300] {
            #expect(XMLRealFormat.digits(r) == nil, "\(r)")
        }
    }

    @Test func eightDigitsAreTheDecimalDigitsOfEveryKindOfValue() {
        var values: [UInt32] = [0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 99_999_999, 12_345_678, 10_000_001, 90_000_009]
        var generator = SplitMix(state: 42)
        for _ in 0..<100_000 { values.append(UInt32(generator.next() % 100_000_000)) }
        for v in values {
            let word = XMLRealFormat.eightDigits(v)
            let text = withUnsafeBytes(of: word.littleEndian) { String(decoding: $0, as: UTF8.self) }
            #expect(text == String(format: "%08u", v))
        }
    }

    @Test func keysAreSortedByUTF16CodeUnitAsCFStringCompareSortsThem() throws {
        // U+FF21 sorts after U+1F600 in UTF-8 but before it in UTF-16 (a surrogate pair, 0xD83D…).
        let keys = ["b", "B", "a", "", "é", "\u{FF21}", "😀", "aa", "a b"]
        let value = PropertyListValue.dictionary(PropertyListDictionary(keys.map { (PropertyListValue.string($0), PropertyListValue.bool(true)) }))
        let written = try body(value).filter { $0.hasPrefix("\t<key>") }
        #expect(written == ["", "B", "a", "a b", "aa", "b", "é", "😀", "\u{FF21}"].map { "\t<key>\($0)</key>" })
    }

    // MARK: - Scalars

    @Test(arguments: [
        (0.0, "0.0"),
        (-0.0, "0.0"),
        (1.0, "1"),
        (-1.5, "-1.5"),
        (0.1, "0.10000000000000001"),
        (1.0 / 3.0, "0.33333333333333331"),
        (1e20, "1e+20"),
        (1e16, "10000000000000000"),
        (4.5e-6, "4.5000000000000001e-06"),
        (-4.5e-11, "-4.5e-11"),
        (Double.leastNonzeroMagnitude, "4.9406564584124654e-324"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (Double.nan, "nan"),
        (Double.infinity, "+infinity"),
        (-Double.infinity, "-infinity"),
    ])
    func realsAreFormattedAsCFFormatsThem(value: Double, text: String) throws {
        #expect(try body(.real(value)) == ["<real>\(text)</real>"])
    }

    @Test(arguments: [
        (PropertyListInteger(0), "0"),
        (PropertyListInteger(-1), "-1"),
        (PropertyListInteger(Int64.min), "-9223372036854775808"),
        (PropertyListInteger(Int64.max), "9223372036854775807"),
        (PropertyListInteger(UInt64.max), "18446744073709551615"),
        (PropertyListInteger(Int128.max), "170141183460469231731687303715884105727"),
        (PropertyListInteger(Int128.min), "-170141183460469231731687303715884105728"),
    ])
    func integersAreWrittenInDecimal(value: PropertyListInteger, text: String) throws {
        #expect(try body(.integer(value)) == ["<integer>\(text)</integer>"])
    }

    @Test(arguments: [
        (0.0, "2001-01-01T00:00:00Z"),
        (0.999, "2001-01-01T00:00:00Z"),
        (59.9999999, "2001-01-01T00:00:59Z"),
        (-0.5, "2000-12-31T23:59:59Z"),
        // CF's floating-point steps give second 60 for a time a hair before the reference date.
        (-1e-20, "2000-12-31T23:59:60Z"),
        (-978_307_200.0, "1970-01-01T00:00:00Z"),
        (-3_187_296_000.0, "1900-01-01T12:00:00Z".replacingOccurrences(of: "12", with: "00")),
        (-63_113_904_000.0, "0001-01-01T00:00:00Z"),
        (-63_113_904_000.0 - 86_400 * 400, "-001-11-28T00:00:00Z"),
        (1e12, "33689-09-27T01:46:40Z"),
        (-1e12, "-29688-04-06T22:13:20Z"),
    ])
    func datesAreWrittenInWholeSecondsAsCFWritesThem(interval: Double, text: String) throws {
        #expect(try body(.date(Date(timeIntervalSinceReferenceDate: interval))) == ["<date>\(text)</date>"])
    }

    /// Dates where the quick path could slip: around every minute, day, month and year change
    /// met at random, the ends of years 0 and 9999, negative years, the writable range's ends,
    /// and fractional times of every size.
    static func awkwardDates() -> [Double] {
        var samples: [Double] = [0, -1e-20, 1e-20, -0.5, 59.9999999, 60, -60, -63_113_904_000, -63_113_904_000 - 1e-6,
                                 -63_113_904_000 - 86_400 * 400, 252_423_993_600 - 1, 252_423_993_600, 252_423_993_600 - 1e-5,
                                 1e15, -1e15, 1e12, -1e12, 978_307_200, -978_307_200]
        var generator = SplitMix(state: 0xDA7E)
        for _ in 0..<100_000 {
            let unit = Double(generator.next() >> 11) * 0x1p-53
            samples.append(unit * 1e9)
            samples.append((unit - 0.5) * 6e11)
            let minute = Double(Int64(generator.next() % 20_000_000_000) - 10_000_000_000) * 60
            samples += [minute, minute.nextUp, minute.nextDown, minute - 1e-7, minute + 0.999_999]
        }
        for _ in 0..<2_000 { samples.append((Double(generator.next() >> 11) * 0x1p-53 - 0.5) * 2e15) }
        return samples
    }

    @Test func datesTakeTheQuickPathToTheBytesOfTheFieldByFieldOne() {
        var mismatches: [String] = []
        var quick = 0
        for interval in Self.awkwardDates() {
            let date = Date(timeIntervalSinceReferenceDate: interval)
            var ours = OutputBuffer(), general = OutputBuffer()
            #expect(XMLDateFormat.append(date, to: &ours))
            guard let fields = XMLDateFormat.fields(date) else {
                Issue.record("no fields for \(interval)")
                continue
            }
            if (0...9999).contains(fields.year) { quick += 1 }
            XMLDateFormat.appendPadded(fields, to: &general)
            let a = ours.bytes(0..<ours.length), b = general.bytes(0..<general.length)
            if a != b, mismatches.count < 10 {
                mismatches.append("\(interval): \(String(decoding: a, as: UTF8.self)) != \(String(decoding: b, as: UTF8.self))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(quick > 250_000)
    }

    @Test func fractionalDatesAcrossCenturiesAreWrittenAsFoundationWritesThem() throws {
        let dates = Self.awkwardDates().filter { abs($0) < 1e11 }.prefix(20_000).map { Date(timeIntervalSinceReferenceDate: $0) }
        #expect(dates.count == 20_000)
        let theirs = try PropertyListSerialization.data(fromPropertyList: dates, format: .xml, options: 0)
        #expect(try XMLPropertyListWriter().write(.array(dates.map { .date($0) })) == theirs)
    }

    @Test func stringsEscapeOnlyWhatCFEscapesPlusWhatXMLCannotCarryRaw() throws {
        #expect(try body("<a href=\"x\">'&'</a>") == ["<string>&lt;a href=\"x\"&gt;'&amp;'&lt;/a&gt;</string>"])
        // NUL, CR, U+FFFE and U+FFFF would not survive an XML parser raw.
        #expect(try body("a\u{0}b\rc\u{FFFE}d\u{FFFF}e") == ["<string>a&#0;b&#13;c&#65534;d&#65535;e</string>"])
        // Other controls are written raw, as CF does.
        #expect(try body("tab\there\u{1}\u{8}") == ["<string>tab\there\u{1}\u{8}</string>"])
    }

    @Test func everyCharacterOfAStringSurvivesARoundTrip() throws {
        var scalars = (0..<0x20).compactMap(Unicode.Scalar.init)
        scalars += ["\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "<", ">", "&", "\"", "'"]
        let strings: [PropertyListValue] = scalars.map { .string("a\(Character($0))b") } + ["\r\n", "\n\r", "  leading and trailing  ", ""]
        let value = PropertyListValue.array(strings)
        #expect(try XMLPropertyListReader().read(XMLPropertyListWriter().write(value)) == value)
        let keyed = PropertyListValue.dictionary(PropertyListDictionary(strings.map { ($0, $0) }))
        #expect(try XMLPropertyListReader().read(XMLPropertyListWriter().write(keyed)) == keyed)
    }

    // MARK: - Base64

    @Test(arguments: [
        (count: 0, depth: 0, lines: [Int]()),
        (count: 1, depth: 0, lines: [4]),
        (count: 2, depth: 0, lines: [4]),
        (count: 3, depth: 0, lines: [4]),
        (count: 57, depth: 0, lines: [76]),
        (count: 58, depth: 0, lines: [76, 4]),
        (count: 114, depth: 0, lines: [76, 76]),
        (count: 51, depth: 1, lines: [68]),
        (count: 52, depth: 1, lines: [68, 4]),
        (count: 100, depth: 2, lines: [60, 60, 16]),
        (count: 9, depth: 8, lines: [12]),
        (count: 10, depth: 8, lines: [12, 4]),
        // Past 8 tabs CF stops indenting the base64 and keeps 12-character lines.
        (count: 20, depth: 11, lines: [12, 12, 4]),
    ])
    func dataIsWrappedAsCFWrapsIt(count: Int, depth: Int, lines: [Int]) throws {
        let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let written = try body(nested(.data(bytes), depth: depth))
        let open = try #require(written.firstIndex(of: String(repeating: "\t", count: depth) + "<data>"))
        let close = try #require(written.firstIndex(of: String(repeating: "\t", count: depth) + "</data>"))
        let base64Lines = written[(open + 1)..<close]
        let tabs = String(repeating: "\t", count: min(depth, 8))
        #expect(base64Lines.allSatisfy { $0.hasPrefix(tabs) && !$0.dropFirst(tabs.count).contains("\t") })
        #expect(base64Lines.map { $0.count - tabs.count } == lines)
        #expect(Data(base64Encoded: base64Lines.map { $0.dropFirst(tabs.count) }.joined()) == bytes)
    }

    @Test func dataOfEveryLengthUpTo200AtEveryDepthUpTo10IsWrittenAsFoundationWritesIt() throws {
        var generator = SplitMix(state: 0xDA7A)
        let values: [PropertyListValue] = (0...10).flatMap { depth in
            (0...200).map { count in
                nested(.data(Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })), depth: depth)
            }
        }
        let theirs = try PropertyListSerialization.data(fromPropertyList: foundationPropertyList(.array(values)), format: .xml, options: 0)
        #expect(try XMLPropertyListWriter().write(.array(values)) == theirs)
    }

    // MARK: - What XML cannot carry

    @Test(arguments: [
        (PropertyListValue.null, [String]()),
        (["a": [1, .null]], ["a", "[1]"]),
        ([.invalidUTF16String([0xD800])], ["[0]"]),
        (["k": .dictionary(PropertyListDictionary([(PropertyListValue.integer(PropertyListInteger(1)), PropertyListValue.bool(true))]))], ["k"]),
    ] as [(PropertyListValue, [String])])
    func valuesXMLCannotCarryAreRefusedWithTheirKeyPath(value: PropertyListValue, keyPath: [String]) {
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().write(value) }
        #expect(error?.code == .unrepresentable)
        #expect(error?.keyPath == keyPath)
    }

    @Test func datesThatAreNotFiniteAreRefused() {
        // Built here, not as test arguments: describing a NaN Date traps in Foundation.
        for interval in [Double.nan, .infinity, -.infinity, 1e300] {
            let value: PropertyListValue = ["when": [.date(Date(timeIntervalSinceReferenceDate: interval))]]
            let error = #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().write(value) }
            #expect(error?.code == .unrepresentable)
            #expect(error?.keyPath == ["when", "[0]"])
        }
    }

    @Test func veryDeepNestingIsWrittenWithoutRecursionAndWithIndentationCappedAt512() throws {
        // Deep enough to pass the cap; the conformance run writes 100,000 levels in the CLI.
        let depth = 3_000
        let written: Data? = onDeepStack {
            try? XMLPropertyListWriter().write(nested(.bool(true), depth: depth))
        }
        let data = try #require(written)
        // 2 lines per level, each at most 512 tabs and "</array>", where CF would write depth² tabs.
        #expect(data.count < 2 * depth * (512 + 9) + 1000)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines[3 + 511] == String(repeating: "\t", count: 511) + "<array>")
        #expect(lines[3 + 600] == String(repeating: "\t", count: 512) + "<array>")
        var options = PropertyListReadOptions()
        options.maximumDepth = depth
        let levels: Int? = onDeepStack {
            guard var value = try? XMLPropertyListReader(options: options).read(data) else { return nil }
            var levels = 0
            while case .array(let a) = value, let first = a.first {
                levels += 1
                value = first
            }
            return levels
        }
        #expect(levels == depth)
    }

    // MARK: - Foundation

    /// A varied value of everything Foundation can hold: nested containers, unicode, big and
    /// negative integers, reals, whole-second dates, data of many lengths at many depths.
    static let varied: PropertyListValue = {
        var items: [(PropertyListValue, PropertyListValue)] = [
            ("string", "hello"),
            ("unicode", "Grüße, 日本語, emoji 😀, private \u{E000}, replacement \u{FFFD}"),
            ("markup", "a < b && c > d \"quoted\" 'single' ]]>"),
            ("empty", ""),
            ("spaces", "  padded\n\tlines  "),
            ("int", 42),
            ("negative", -7),
            ("min", .integer(PropertyListInteger(Int64.min))),
            ("max", .integer(PropertyListInteger(Int64.max))),
            ("unsigned", .integer(PropertyListInteger(UInt64.max))),
            ("reals", [0.0, 1.0, -1.5, 0.1, 1e20, 1e-300, 3.141592653589793, .real(.greatestFiniteMagnitude), .real(.infinity), .real(-.infinity)]),
            ("dates", [
                .date(Date(timeIntervalSinceReferenceDate: 0)),
                .date(Date(timeIntervalSince1970: 0)),
                .date(Date(timeIntervalSince1970: 1_700_000_000)),
                .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000)),
                .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000 - 86_400 * 400)),
                .date(Date(timeIntervalSinceReferenceDate: 1e11)),
            ]),
            ("bools", [true, false]),
            ("emptyArray", []),
            ("emptyDict", [:]),
            ("nested", ["a": ["b": ["c": [[1, [2, [3]]]]]]]),
        ]
        for (i, count) in [0, 1, 2, 3, 4, 45, 46, 57, 58, 100, 1000].enumerated() {
            let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) })
            items.append((.string("data\(count)"), nested(.data(bytes), depth: i)))
        }
        items.append(("sorted", .dictionary(PropertyListDictionary(["b", "B", "a", "é", "\u{FF21}", "😀", "aa"].map { (PropertyListValue.string($0), PropertyListValue.string($0)) }))))
        return .dictionary(PropertyListDictionary(items))
    }()

    @Test func weWriteTheSameBytesAsFoundation() throws {
        let theirs = try PropertyListSerialization.data(fromPropertyList: foundationPropertyList(Self.varied), format: .xml, options: 0)
        let ours = try XMLPropertyListWriter().write(Self.varied)
        #expect(ours == theirs)
        if ours != theirs {
            let a = String(decoding: ours, as: UTF8.self).split(separator: "\n"), b = String(decoding: theirs, as: UTF8.self).split(separator: "\n")
            if let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record("first difference at line \(i + 1): ours \(a[i]) theirs \(b[i])")
            }
        }
    }

    @Test func foundationReadsWhatWeWrite() throws {
        let object = try PropertyListSerialization.propertyList(from: XMLPropertyListWriter().write(Self.varied), options: [], format: nil)
        #expect(sameAsFoundation(object, Self.varied))
    }

    @Test func weReadWhatFoundationWrites() throws {
        let theirs = try PropertyListSerialization.data(fromPropertyList: foundationPropertyList(Self.varied), format: .xml, options: 0)
        #expect(try XMLPropertyListReader().read(theirs) == Self.varied)
    }

    @Test(arguments: [-1e-20, -0.5, 0.25, 59.9999999, -63_113_904_000.5, 1e12 + 0.75, -1e12 - 0.25])
    func fractionalDatesAreCutAsFoundationCutsThem(interval: Double) throws {
        let date = Date(timeIntervalSinceReferenceDate: interval)
        let theirs = try PropertyListSerialization.data(fromPropertyList: [date], format: .xml, options: 0)
        #expect(try XMLPropertyListWriter().write([.date(date)]) == theirs)
    }

    // MARK: - The shared corpus

    @Test(.enabled(if: SharedCorpus.isAvailable, "../shared/corpus is absent"))
    func everyValidCorpusXMLFileRoundTripsAndAppleFilesComeOutByteIdentical() throws {
        let files = SharedCorpus.entries { $0.format == "xml" && $0.isValid }
        var identical: [String] = []
        var different: [String] = []
        for entry in files {
            let original = try Data(contentsOf: entry.url)
            // Files other tools read and CF refuses (UTF-16 without a mark, a comment inside a
            // key) are refused here too: everyXMLFileOfTheCorpusIsReadExactlyWhenCFReadsIt.
            guard let value = try? XMLPropertyListReader().read(original) else { continue }
            let written = try XMLPropertyListWriter().write(value)
            let again = try XMLPropertyListReader().read(written)
            // Compared apart so that a failure names the file rather than printing the whole tree.
            let unchanged = again == value
            #expect(unchanged, "\(entry.path) changed in a round trip")
            // The conformance run's fidelity check: Apple-written files, reproduced byte for byte.
            if entry.producer == "Apple", !entry.path.hasPrefix("CFPropertyList-ruby/") {
                if written == original { identical.append(entry.path) } else { different.append(entry.path) }
            }
        }
        // The rest are older (the "Apple Computer" DOCTYPE, &apos;), hand-edited (spaces,
        // unsorted keys) or not written by CF's writer at all.
        #expect(identical.count >= 20, "identical: \(identical); different: \(different)")
        #expect(identical.contains("cpython/TESTDATA_FMT_XML.plist"))
    }
}
