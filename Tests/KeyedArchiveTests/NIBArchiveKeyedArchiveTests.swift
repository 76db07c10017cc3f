import BlobFixtures
import Foundation
import KeyedArchive
import NIBArchive
import PropertyList
import Testing

/// Compiled nibs read as the keyed archive of their objects (`KeyedArchive(data:)` finds them by
/// their magic): the fixtures compiled by Apple's ibtool, and nibs built to show each rule.
struct NIBArchiveKeyedArchiveTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/nib")

    static var files: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "nib" }.sorted { $0.path < $1.path }
    }

    @Test func everyFixtureNibDecodesWithEveryObjectAndClassOfTheNib() throws {
        #expect(Self.files.count >= 6)
        for url in Self.files {
            let data = try Data(contentsOf: url)
            let nib = try NIBArchive(data: data)
            let archive = try KeyedArchive(data: data)
            #expect(archive.isNIBArchive && archive.archiver == "NIBArchive" && archive.version == 10, "\(url.lastPathComponent)")
            #expect(archive.rootObject?.className == "NSObject")
            // Every object of the nib is reachable from its root object and decoded, class by class
            // (strings, numbers and NSData become inline values, which count under their class).
            var nibCounts = Dictionary(uniqueKeysWithValues: nib.classCounts.map { ($0.name, $0.count) })
            var ours = Dictionary(uniqueKeysWithValues: archive.classCounts.map { ($0.name, $0.count) })
            for inline in ["NSString", "NSNumber", "NSData"] {
                nibCounts[inline] = nil
                ours[inline] = nil
            }
            let reachable = Set(archive.decodedObjects.map(\.uid))
            #expect(reachable.count <= nib.objects.count)
            for (name, count) in nibCounts {
                #expect((ours[name] ?? 0) <= count, "\(url.lastPathComponent) \(name)")
            }
            #expect(ours.keys.allSatisfy { nibCounts[$0] != nil }, "\(url.lastPathComponent)")
        }
    }

    @Test func theMinimalNibHasTheGraphIbtoolWrote() throws {
        let archive = try KeyedArchive(data: Data(contentsOf: Self.folder.appendingPathComponent("minimal.nib")))
        let root = try #require(archive.rootObject)
        let objectData = try #require(root.fields.first { $0.key == "IB.objectdata" }.flatMap { archive.object(field: $0) })
        #expect(objectData.className == "NSIBObjectData")
        let oids = try #require(objectData.fields.first { $0.key == "NSOidsValues" }.flatMap { archive.object(field: $0) })
        guard case .array(let elements) = oids.content else { Issue.record("NSOidsValues is \(oids.content)"); return }
        #expect(elements.count == 2)
        let numbers = elements.compactMap { archive.object($0) }.map(\.content)
        #expect(numbers == [.number(.integer(PropertyListInteger(1))), .number(.integer(PropertyListInteger(2)))])
        let rootObject = try #require(objectData.fields.first { $0.key == "NSRoot" }.flatMap { archive.object(field: $0) })
        let name = try #require(rootObject.fields.first { $0.key == "NSClassName" }.flatMap { archive.object(field: $0) })
        #expect(name.content == .string("NSApplication"))
    }

    @Test func aDictionaryKeepsItsAlternatingKeysAndObjectsAndANestedNibIsFound() throws {
        let archive = try KeyedArchive(data: Data(contentsOf: Self.folder.appendingPathComponent("HSChooserWindow.nib")))
        let dictionaries = archive.decodedObjects.filter { $0.className == "NSDictionary" }
        #expect(!dictionaries.isEmpty)
        for dictionary in dictionaries {
            guard case .dictionary(let keys, let values) = dictionary.content else { Issue.record("\(dictionary.content)"); continue }
            #expect(keys.count == values.count)
        }
        let nested = archive.decodedObjects.compactMap { object -> Data? in
            if case .data(let d) = object.content, NIBArchive.isNIBArchive(d) { return d }
            return nil
        }
        #expect(!nested.isEmpty)
        for data in nested {
            #expect(NestedPayload.identify(data) == .nibArchive)
            guard case .nibArchive(let inner)? = NestedPayload.expand(data) else { Issue.record("not expanded"); continue }
            #expect(inner.isNIBArchive)
        }
    }

    @Test func valuesWithoutAKeyBecomeDollarNumbersOutsideCollectionsAndRepeatedKeysAreNumbered() throws {
        var writer = NIBArchiveWriter()
        let root = writer.object("NSObject")
        let a = writer.string("a")
        let b = writer.string("b")
        let view = writer.object("MyView", [("UINibEncoderEmptyKey", a), ("UINibEncoderEmptyKey", b), ("tag", .int8(1)), ("tag", .int8(2))])
        let list = writer.object("NSMutableArray", [("NSInlinedValue", .bool(false)), ("UINibEncoderEmptyKey", a), ("UINibEncoderEmptyKey", .object(view))])
        writer.set(root, "NSObject", [("IB.objectdata", .object(list)), ("nothing", .null)])
        let archive = try KeyedArchive(data: Data(writer.bytes()))
        let viewObject = try #require(archive.objects[view + 1])
        #expect(viewObject.fields.map(\.key) == ["tag", "tag$1", "$0", "$1"])
        let listObject = try #require(archive.objects[list + 1])
        guard case .array(let elements) = listObject.content else { Issue.record("\(listObject.content)"); return }
        #expect(elements == [.object(uid: a.objectIndex + 1), .object(uid: view + 1)])
        #expect(archive.rootObject?.fields.first { $0.key == "nothing" }?.value == .null)
    }

    @Test func aDamagedNibIsAnErrorThatSaysItIsANib() {
        #expect {
            try KeyedArchive(data: Data("NIBArchive".utf8) + Data(count: 20))
        } throws: { error in
            guard let error = error as? KeyedArchiveError else { return false }
            return error.code == .nibArchive && error.description.hasPrefix("compiled nib (NIBArchive): ") && error.underlyingNIBArchive?.code == .truncated
        }
    }

    @Test func contentKindNamesNibsAndBookmarkData() throws {
        #expect(ContentKind.sniff(try Data(contentsOf: Self.folder.appendingPathComponent("minimal.nib"))) == .nibArchive)
        var writer = BookmarkWriter()
        #expect(ContentKind.sniff(Data(writer.bytes(tables: []))) == .bookmark)
        #expect(ContentKind.sniff(Data("book of the dead, chapter one".utf8)) == nil)
    }
}

extension NIBArchiveValue.Content {
    /// The object index of an `.object` value (test shorthand).
    var objectIndex: Int {
        if case .object(let i) = self { return i }
        return -1
    }
}

extension KeyedArchive {
    /// The object a field refers to.
    func object(field: ArchivedField) -> ArchivedObject? {
        if case .object(let uid) = field.value { return objects[uid] }
        return nil
    }
}
