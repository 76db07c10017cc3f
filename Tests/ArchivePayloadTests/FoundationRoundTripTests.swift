import Foundation
import Testing
@testable import ArchivePayload
import KeyedArchive
import PropertyList

/// The archives the round trips start from: every valid keyed archive of the shared corpus
/// (`../shared/corpus`, listed by its INDEX.tsv; absent corpus, none of these) and every keyed
/// archive in `Fixtures/`.
enum RoundTripInputs {
    struct Input: CustomStringConvertible {
        var name: String
        var data: Data
        var description: String { name }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let corpus: URL? = {
        if let env = ProcessInfo.processInfo.environment["ARCHIVIST_CORPUS"] { return URL(fileURLWithPath: env) }
        let url = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("INDEX.tsv").path) ? url : nil
    }()

    static var corpusInputs: [Input] {
        guard let corpus, let text = try? String(contentsOf: corpus.appendingPathComponent("INDEX.tsv"), encoding: .utf8) else { return [] }
        var rows = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard !rows.isEmpty else { return [] }
        let header = rows.removeFirst()
        guard let path = header.firstIndex(of: "path"), let archive = header.firstIndex(of: "is_keyed_archive"),
              let invalid = header.firstIndex(of: "deliberately_invalid") else { return [] }
        return rows.compactMap { row in
            guard row.count > max(path, archive, invalid), row[archive] == "yes", row[invalid] == "no",
                  let data = try? Data(contentsOf: corpus.appendingPathComponent(row[path])) else { return nil }
            return Input(name: row[path], data: data)
        }
    }

    static var fixtureInputs: [Input] {
        var out: [Input] = []
        for folder in ["Fixtures/archives", "Fixtures/plist"] {
            let directory = repository.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() {
                guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)),
                      (try? KeyedArchive(data: data)) != nil else { continue }
                out.append(Input(name: "\(folder)/\(name)", data: data))
            }
        }
        return out
    }

    static var all: [Input] { corpusInputs + fixtureInputs }
}

/// What Archivist writes, Foundation reads: every archive `unarchive` accepts goes through
/// `unarchive` and back through `archive`, and Foundation's `NSKeyedUnarchiver` (secure coding,
/// the transformer's default classes) must read the payload back; and every archive whose classes
/// Linux Foundation has is written again from its typed tree, and Foundation must read the same
/// values from it as from the original. 0 unequal is the bar.
@Suite struct FoundationRoundTripTests {
    /// Archives `unarchive` refuses, so no payload comes out of them to archive again.
    static let refusedByUnarchive: [String: String] = [
        "bpylist2/circular_archive.plist": "a cycle",
        "Fixtures/archives/cycle-self-reference.bplist": "a cycle",
        "Fixtures/archives/note-with-attachments.bplist": "a cycle (the owner's note is the root)",
    ]

    struct Tally {
        var accepted = 0
        var equal = 0
        var unequal: [String] = []
        var excluded: [String: String] = [:]
    }

    /// unarchive → archive → Foundation, with the payload in `format`: `.json` as `unarchive
    /// --to json | archive -` does, `.binary` as `unarchive --to binary | archive -` does.
    func roundTrip(_ input: RoundTripInputs.Input, through format: PropertyListFormat, into tally: inout Tally) {
        let payload: PropertyListValue
        let bytes: Data
        do {
            let archive = try KeyedArchive(data: input.data)
            let target: PayloadOptions.Target = format == .json ? .json : .propertyList
            payload = try PayloadMapper(options: PayloadOptions(target: target)).payload(of: archive)
            bytes = format == .json ? try JSONPropertyListWriter().write(payload) : BinaryPropertyListWriter().write(payload)
        } catch {
            tally.excluded[input.name] = "unarchive refuses it: \(error)"
            return
        }
        tally.accepted += 1
        do {
            // `archive` detects the format from the bytes alone, as it does on standard input.
            let (read, detected) = try PropertyListReader().read(bytes)
            guard detected == format else {
                tally.unequal.append("\(input.name): unarchive's \(format) output reads as \(detected)")
                return
            }
            let nullMarker = PayloadArchiver.nullMarker(for: detected)
            let archived = try PayloadArchiver(nullMarker: nullMarker).archive(read)
            let data = try KeyedArchiveWriter().write(archived)
            if let risk = FoundationClient.crashRisk(try KeyedArchive(data: data), allowed: .transformerDefault) {
                tally.unequal.append("\(input.name): what archive wrote is not for Foundation: \(risk)")
                return
            }
            let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: FoundationClient.transformerDefaultClasses, from: data)
            if let problem = FoundationClient.mismatch(object, read, nullMarker: nullMarker) {
                tally.unequal.append("\(input.name): \(problem)")
            } else {
                tally.equal += 1
            }
        } catch {
            tally.unequal.append("\(input.name): \(error)")
        }
    }

    @Test(arguments: [PropertyListFormat.json, .binary])
    func everyArchiveUnarchiveAcceptsComesBackThroughArchiveAsFoundationReadsIt(format: PropertyListFormat) {
        var tally = Tally()
        let inputs = RoundTripInputs.all
        for input in inputs { roundTrip(input, through: format, into: &tally) }
        print("round trip through \(format): \(inputs.count) archives, \(tally.accepted) accepted by unarchive, \(tally.equal) equal, \(tally.unequal.count) unequal, excluded \(tally.excluded.keys.sorted())")
        #expect(tally.unequal.isEmpty, "\(tally.unequal.joined(separator: "\n"))")
        #expect(tally.equal == tally.accepted)
        // Only what unarchive refuses by design is left out, and it is said why.
        let expected = Self.refusedByUnarchive.filter { name, _ in inputs.contains { $0.name == name } }
        #expect(Set(tally.excluded.keys) == Set(expected.keys), "\(tally.excluded)")
        #expect(tally.accepted > 0)
    }

    /// Archives whose classes Linux Foundation has, but which its unarchiver cannot be given
    /// without ending this process, so they are not compared.
    static let unsafeForFoundation: [String: String] = [
        "swift-corelibs-foundation/ByteCountFormatter-AllFieldsSet.archive": "ByteCountFormatter does not adopt NSSecureCoding on Linux",
        "swift-corelibs-foundation/ByteCountFormatter-Default.archive": "ByteCountFormatter does not adopt NSSecureCoding on Linux",
        "swift-corelibs-foundation/DateIntervalFormatter-Default.archive": "DateIntervalFormatter does not adopt NSSecureCoding on Linux",
        "swift-corelibs-foundation/DateIntervalFormatter-ValuesSetWithTemplate.archive": "DateIntervalFormatter does not adopt NSSecureCoding on Linux",
        "swift-corelibs-foundation/DateIntervalFormatter-ValuesSetWithoutTemplate.archive": "DateIntervalFormatter does not adopt NSSecureCoding on Linux",
        "swift-corelibs-foundation/NSKeyedUnarchiver-NotificationTest.plist": "NSNotification does not adopt NSSecureCoding on Linux",
        // Its NS.data is a reference to the bytes, not the bytes inline; Linux Foundation's NSData
        // only reads them inline, and refuses the original (with an error) as it refuses ours.
        "bpylist2/nsmutabledata_archive.plist": "Linux Foundation cannot read the original",
    ]

    /// Why Foundation cannot read `archive` in this process, or nil with the classes to allow.
    static func foundationClasses(of archive: KeyedArchive) -> (classes: [AnyClass], names: [String], exclusion: String?) {
        var names = Set(archive.decodedObjects.compactMap { $0.archivedClass?.name })
        var classes: [AnyClass] = [NSString.self, NSNumber.self, NSData.self, NSDate.self]
        for name in names.sorted() {
            guard let found = NSClassFromString(name) else {
                return ([], [], "Linux Foundation has no class \(name)")
            }
            guard (found as? NSSecureCoding.Type)?.supportsSecureCoding == true else {
                return ([], [], "\(found) does not adopt NSSecureCoding on Linux")
            }
            classes.append(found)
        }
        names.formUnion(["NSString", "NSNumber", "NSData", "NSDate"])
        return (classes, names.sorted(), nil)
    }

    @Test func everyArchiveWhoseClassesLinuxFoundationHasReadsTheSameWrittenAgainFromItsTypedTree() {
        let inputs = RoundTripInputs.all
        var compared = 0
        var equal = 0
        var unequal: [String] = []
        var noClass: [String] = []
        var unsafe: [String: String] = [:]
        for input in inputs {
            do {
                let archive = try KeyedArchive(data: input.data)
                let (classes, names, exclusion) = Self.foundationClasses(of: archive)
                if let exclusion {
                    if exclusion.hasPrefix("Linux Foundation has no class") { noClass.append(input.name) } else { unsafe[input.name] = exclusion }
                    continue
                }
                if let risk = FoundationClient.crashRisk(archive, allowed: AllowList(classes: names)) {
                    unsafe[input.name] = risk
                    continue
                }
                compared += 1
                let rewritten = try KeyedArchiveWriter().write(archive)
                let keys = archive.top.map(\.key)
                let original: [String: Any]
                do {
                    original = try FoundationClient.decodeTop(input.data, keys: keys, classes: classes)
                } catch {
                    unsafe[input.name] = "Linux Foundation cannot read the original"
                    compared -= 1
                    continue
                }
                let ours = try FoundationClient.decodeTop(rewritten, keys: keys, classes: classes)
                var same = true
                for entry in archive.top {
                    let key = entry.key
                    // Foundation reads nil only where the archive holds $null.
                    if entry.value == .null, original[key] == nil, ours[key] == nil { continue }
                    guard let a = original[key], let b = ours[key], FoundationClient.sameValue(a, b) else {
                        unequal.append("\(input.name): $top \(key): the original reads as \(FoundationClient.describe(original[key])), ours as \(FoundationClient.describe(ours[key]))")
                        same = false
                        break
                    }
                }
                if same { equal += 1 }
            } catch {
                unequal.append("\(input.name): \(error)")
            }
        }
        print("typed tree written again: \(inputs.count) archives, \(compared) compared, \(equal) equal, \(unequal.count) unequal; \(noClass.count) hold a class Linux Foundation lacks; not given to Foundation: \(unsafe)")
        #expect(unequal.isEmpty, "\(unequal.joined(separator: "\n"))")
        #expect(equal == compared)
        #expect(compared > 0)
        let expected = Self.unsafeForFoundation.filter { name, _ in inputs.contains { $0.name == name } }
        #expect(unsafe == expected)
    }
}
