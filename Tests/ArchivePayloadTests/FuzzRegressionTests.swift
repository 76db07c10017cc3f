import Foundation
import Testing
import ArchivePayload
import ArchiveReports
import KeyedArchive
import PropertyList
import PropertyListXML

/// Every input the fuzzers found (Tests/FuzzRegressions/<target>/<name>, described in the
/// README there), run through the same code path as the libFuzzer target that found it.
///
/// A thrown error is a pass: the point is that nothing crashes, hangs or runs away with memory.
/// Leaks only show under a sanitizer: `scripts/fuzz regress` runs the same inputs through the
/// fuzz targets built with AddressSanitizer and LeakSanitizer (docs/fuzzing.md).
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    struct Input: CustomTestStringConvertible, Sendable {
        var target: String
        var name: String
        var url: URL
        var testDescription: String { "\(target)/\(name)" }
    }

    /// The targets of FuzzTesting/Package.swift.
    static let targets = ["FuzzBinaryPropertyList", "FuzzXMLPropertyList", "FuzzOpenStepPropertyList",
                          "FuzzJSONPropertyList", "FuzzKeyedArchive", "FuzzCheckAndUnarchive", "FuzzSmallArchive", "FuzzParity"]

    static let inputs: [Input] = {
        let files = FileManager.default
        var inputs: [Input] = []
        for target in targets {
            let folder = directory.appendingPathComponent(target)
            let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                inputs.append(Input(target: target, name: name, url: folder.appendingPathComponent(name)))
            }
        }
        return inputs
    }()

    /// What each fuzz target does with its bytes (FuzzTesting/Sources/<target>/main.swift).
    static func run(_ target: String, _ data: Data) {
        switch target {
        case "FuzzBinaryPropertyList":
            guard let value = try? BinaryPropertyListReader().read(data) else { return }
            _ = PropertyListPrettyPrinter().render(value)
            _ = BinaryPropertyListWriter().write(value)
            _ = try? XMLPropertyListWriter().write(value)
            _ = try? JSONPropertyListWriter().write(value)
        case "FuzzXMLPropertyList": _ = try? XMLPropertyListReader().read(data)
        case "FuzzOpenStepPropertyList": _ = try? OpenStepPropertyListReader().read(data)
        case "FuzzJSONPropertyList": _ = try? JSONPropertyListReader().read(data)
        case "FuzzKeyedArchive":
            guard let archive = try? KeyedArchive(data: data) else { return }
            _ = KeyedArchiveTreePrinter().render(archive)
            _ = try? KeyedArchiveJSONExporter().write(archive)
            _ = KeyedArchiveDotExporter().render(archive)
        case "FuzzCheckAndUnarchive":
            guard let archive = try? KeyedArchive(data: data) else { return }
            _ = AllowListChecker().check(archive)
            for expands in [false, true] {
                let mapper = PayloadMapper(options: PayloadOptions(expandsNestedPayloads: expands))
                guard let payload = try? mapper.payload(of: archive) else { continue }
                _ = try? JSONPropertyListWriter().write(payload)
            }
        case "FuzzSmallArchive":
            // Differential: what the in-place reader reads is what the ordinary readers read.
            let reader = SmallArchiveReader()
            if let small = reader.archive(data) { #expect(small == (try? KeyedArchive(data: data))) }
            if let index = reader.classIndex(data) { #expect(index.classes == KeyedArchiveClassIndex(data: data)?.classes) }
        case "FuzzParity":
            // Archivist's side; Core Foundation's answer for each stored difference is held by the
            // unit test named in Tests/FuzzRegressions/README.md.
            _ = try? PropertyListReader().read(data)
        default:
            Issue.record("no fuzz target is named \(target)")
        }
    }

    @Test func everyStoredInputBelongsToAFuzzTarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }
        #expect(Set(folders).isSubset(of: Set(Self.targets)), "unknown folders: \(folders)")
        #expect(!Self.inputs.isEmpty)
    }

    @Test(arguments: inputs)
    func aStoredFuzzInputRunsThroughItsTargetWithoutCrashing(_ input: Input) throws {
        let data = try Data(contentsOf: input.url)
        Self.run(input.target, data)
    }

    /// Each input through every other target as well: a file that breaks one reader is a good
    /// test of the others, and detection sends it to its reader in the archive targets anyway.
    @Test(arguments: inputs)
    func aStoredFuzzInputRunsThroughEveryOtherTargetWithoutCrashing(_ input: Input) throws {
        let data = try Data(contentsOf: input.url)
        for target in Self.targets where target != input.target {
            Self.run(target, data)
        }
    }
}
