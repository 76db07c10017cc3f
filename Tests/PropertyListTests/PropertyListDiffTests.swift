import Foundation
import Testing
@testable import PropertyList

/// `diff` on plain property lists: each difference named by its keypath, numbers compared exactly.
@Suite struct PropertyListDiffTests {
    static let before: PropertyListValue = [
        "CFBundleVersion": "41",
        "LSMinimumSystemVersion": "13.0",
        "UIDeviceFamily": [1, 2],
        "Ratio": 1,
        "com.apple.security.app-sandbox": true,
        "Nested": ["a": ["b": "c"]],
    ]

    static func changes(_ a: PropertyListValue, _ b: PropertyListValue, asSets: Bool = false) -> [String] {
        PropertyListDiff(arraysAsSets: asSets).differences(from: a, to: b).map { d in
            "\(d.change.rawValue) \(d.path) \(d.old?.summary ?? "")|\(d.new?.summary ?? "")"
        }
    }

    @Test func aDocumentEqualsItselfWhateverItsKeyOrder() {
        let reordered = PropertyListValue.dictionary(PropertyListDictionary(Self.before.dictionaryValue!.reversed().map { ($0.key, $0.value) }))
        #expect(PropertyListDiff().differences(from: Self.before, to: reordered).isEmpty)
    }

    @Test func everyKindOfChangeIsNamedByItsKeypath() throws {
        var after = Self.before
        try after.edit("42", at: PropertyListKeyPath("CFBundleVersion"), mode: .replace)
        try after.remove(at: PropertyListKeyPath("LSMinimumSystemVersion"))
        try after.edit(3, at: PropertyListKeyPath("UIDeviceFamily"), mode: .append)
        try after.edit(1.0, at: PropertyListKeyPath("Ratio"), mode: .replace)
        try after.edit(false, at: PropertyListKeyPath("com\\.apple\\.security\\.app-sandbox"), mode: .replace)
        try after.edit("d", at: PropertyListKeyPath("Nested.a.b"), mode: .replace)
        #expect(Self.changes(Self.before, after) == [
            #"changed CFBundleVersion "41"|"42""#,
            #"removed LSMinimumSystemVersion "13.0"|"#,
            "added UIDeviceFamily.2 |3",
            "typeChanged Ratio 1|1.0",
            "changed com\\.apple\\.security\\.app-sandbox true|false",
            #"changed Nested.a.b "c"|"d""#,
        ])
    }

    @Test func integerOneAndFloatOneDifferAndSaySo() {
        let differences = PropertyListDiff().differences(from: ["n": 1], to: ["n": 1.0])
        #expect(differences.count == 1)
        #expect(differences.first?.change == .typeChanged)
        #expect(differences.first?.old?.type == "integer")
        #expect(differences.first?.new?.type == "float")
        #expect(PropertyListDiff().differences(from: ["z": 0.0], to: ["z": -0.0]).first?.change == .changed)
        #expect(PropertyListDiff().differences(from: ["b": true], to: ["b": 1]).first?.change == .typeChanged)
    }

    @Test func arraysCompareByIndexOrAsSets() {
        let a: PropertyListValue = ["tags": ["x", "y", "z"]]
        let b: PropertyListValue = ["tags": ["z", "x", "y", "w"]]
        #expect(Self.changes(a, b).count == 4)
        #expect(Self.changes(a, b, asSets: true) == [#"added tags.3 |"w""#])
        #expect(Self.changes(["t": ["x", "x"]], ["t": ["x"]], asSets: true) == [#"removed t.1 "x"|"#])
    }

    @Test func theWholeDocumentChangingTypeIsOneDifferenceAtTheRoot() {
        let differences = PropertyListDiff().differences(from: ["a": 1], to: [1])
        #expect(differences.map(\.path) == [""])
        #expect(PropertyListDiffReport(kind: "propertyList", differences: differences).text().hasPrefix("~ (root): dictionary"))
    }

    @Test func theReportReadsAsTextAndAsJSON() throws {
        let differences = PropertyListDiff().differences(from: ["a": 1, "gone": "x"], to: ["a": 1.5, "d": .date(Date(timeIntervalSinceReferenceDate: 0))])
        let report = PropertyListDiffReport(kind: "propertyList", differences: differences)
        #expect(report.text() == """
            ~ a: integer 1 → float 1.5 (type changed)
            - gone: "x"
            + d: 2001-01-01 00:00:00 +0000

            """)
        #expect(report.text(usesColors: true).contains("\u{1B}[31m- gone"))
        let json = try PropertyListReader().read(try report.json()).value
        #expect(json["equal"] == false)
        #expect(json["differences"]?.arrayValue?.count == 3)
        #expect(json.value(at: PropertyListKeyPath("differences.2.new.value")) == "2001-01-01T00:00:00Z")
        #expect(json.value(at: PropertyListKeyPath("differences.0.change")) == "typeChanged")
    }
}

/// Diff on the shared corpus: what is the same must compare the same.
@Suite(.enabled(if: SharedCorpus.isAvailable, "../shared/corpus is absent"))
struct PropertyListDiffCorpusTests {
    @Test func everyReadableFileEqualsItselfReadAgain() throws {
        var compared = 0
        var failures: [String] = []
        for entry in SharedCorpus.entries {
            guard let data = try? Data(contentsOf: entry.url),
                  let a = try? PropertyListReader().read(data).value else { continue }
            let b = try PropertyListReader().read(data).value
            compared += 1
            if let first = PropertyListDiff().differences(from: a, to: b).first { failures.append("\(entry.path): \(first.path)") }
        }
        #expect(compared > 300, "files read: \(compared)")
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func everyXMLFileEqualsItsBinaryConversion() throws {
        var compared = 0
        var failures: [String] = []
        for entry in SharedCorpus.entries(where: { $0.isValid && $0.format == "xml" }) {
            guard let xml = try? PropertyListReader().read(try Data(contentsOf: entry.url)).value else { continue }
            let binary = try PropertyListReader().read(BinaryPropertyListWriter().write(xml)).value
            compared += 1
            let differences = PropertyListDiff().differences(from: xml, to: binary)
            if let first = differences.first { failures.append("\(entry.path): \(first.change) at \(first.path)") }
        }
        #expect(compared > 50, "XML files compared: \(compared)")
        #expect(failures.isEmpty, "\(failures)")
    }
}
