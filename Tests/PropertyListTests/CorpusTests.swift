import Foundation
import Testing
@testable import PropertyList

@Suite(.enabled(if: SharedCorpus.isAvailable, "../shared/corpus is absent"))
struct CorpusTests {
    static let deepOptions: PropertyListReadOptions = {
        var o = PropertyListReadOptions()
        o.maximumDepth = 200_000
        return o
    }()

    @Test func everyValidBinaryFileReadsAndRoundTripsThroughOurWriter() throws {
        let files = SharedCorpus.entries { $0.format == "bplist00" && $0.isValid }
        #expect(files.count > 150)
        let failures: [String] = onDeepStack {
            var failures: [String] = []
            for entry in files {
                do {
                    let data = try Data(contentsOf: entry.url)
                    let value = try BinaryPropertyListReader(options: Self.deepOptions).read(data)
                    let again = try BinaryPropertyListReader(options: Self.deepOptions).read(BinaryPropertyListWriter().write(value))
                    if again != value { failures.append("\(entry): differs after a round trip") }
                } catch {
                    failures.append("\(entry): \(error)")
                }
            }
            return failures
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func everyInvalidBinaryFileIsRefused() throws {
        let files = SharedCorpus.entries { $0.isInvalidPlist && ($0.format.hasPrefix("bplist")) }
        #expect(files.count > 90)
        var accepted: [String] = []
        for entry in files {
            let data = try Data(contentsOf: entry.url)
            if (try? PropertyListReader().read(data)) != nil { accepted.append(entry.path) }
        }
        #expect(accepted.isEmpty, "\(accepted)")
    }

    @Test func validatingEveryBinaryFileGivesWhatReadingItGives() throws {
        let files = SharedCorpus.entries { $0.format.hasPrefix("bplist") }
        #expect(files.count > 250)
        let disagreements: [String] = onDeepStack {
            var disagreements: [String] = []
            for entry in files {
                guard let data = try? Data(contentsOf: entry.url) else { continue }
                let reader = BinaryPropertyListReader(options: Self.deepOptions)
                var readError: PropertyListError?
                var validationError: PropertyListError?
                do throws(PropertyListError) { _ = try reader.read(data) } catch { readError = error }
                do throws(PropertyListError) { try reader.validate(data) } catch { validationError = error }
                if readError != validationError {
                    disagreements.append("\(entry): read \(String(describing: readError)), validate \(String(describing: validationError))")
                }
            }
            return disagreements
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test func everyBinaryFilePlistlibReadsWeReadAlikeInFoundation() throws {
        // Foundation is a second independent reader: where it reads a file, values must agree.
        let files = SharedCorpus.entries { $0.format == "bplist00" && $0.isValid && $0.plistlib == "ok" }
        var disagreements: [String] = []
        for entry in files {
            let data = try Data(contentsOf: entry.url)
            guard let theirs = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) else { continue }
            let ours = try BinaryPropertyListReader().read(data)
            if !matchesLoosely(theirs, ours) { disagreements.append(entry.path) }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }
}

/// Foundation erases UIDs, sets and non-string keys; compare only what it keeps.
func matchesLoosely(_ object: Any, _ value: PropertyListValue) -> Bool {
    switch value {
    case .array(let a), .set(let a):
        guard let o = object as? [Any] ?? (object as? NSSet)?.allObjects, o.count == a.count else { return false }
        if case .set = value { return true }
        return zip(o, a).allSatisfy { matchesLoosely($0, $1) }
    case .dictionary(let d):
        guard let o = object as? NSDictionary else { return false }
        return o.count == Set(d.keys).count
    case .uid, .null, .invalidUTF16String: return true
    case .integer, .real, .bool:
        return object is NSNumber
    default: return matches(object, value)
    }
}
