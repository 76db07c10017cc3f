import Foundation
import KeyedArchive
import PropertyList
import Testing

/// The archive shapes Foundation's NSKeyedUnarchiver (swift-corelibs-foundation, asked by
/// archivist-parity in a worker process) opens although NSKeyedArchiver never writes them: an
/// archive is read where Foundation reads it. The shapes it refuses or crashes on are in
/// HostileArchiveTests and docs/parity.md.
@Suite struct FoundationArchiveParityTests {
    static func read(_ plist: PropertyListValue, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) -> KeyedArchive {
        try KeyedArchive(data: BinaryPropertyListWriter().write(plist), options: options)
    }

    /// Foundation's behaviour for entries that are no objects, which the default refuses.
    static var asFoundation: KeyedArchiveReadOptions {
        var options = KeyedArchiveReadOptions()
        options.keepsEntriesThatAreNoObjects = true
        return options
    }

    static func archive(version: PropertyListValue = 100_000, objects: [PropertyListValue], top: PropertyListValue = ["root": .uid(1)]) -> PropertyListValue {
        ["$archiver": "NSKeyedArchiver", "$version": version, "$top": top, "$objects": .array(objects)]
    }

    static let string: [PropertyListValue] = ["$null", "hello"]

    /// `_readPropertyList` compares `($version as? NSNumber)?.int32Value` with 100000.
    @Test(arguments: [
        PropertyListValue.real(100_000), .real(100_000.75), .integer(PropertyListInteger((Int64(1) << 32) + 100_000)),
    ])
    func aVersionWhose32BitValueIs100000IsRead(_ version: PropertyListValue) throws {
        let archive = try Self.read(Self.archive(version: version, objects: Self.string))
        #expect(archive.rootObject?.content == .string("hello"))
    }

    @Test(arguments: [PropertyListValue.string("100000"), .bool(true), .uid(100_000), .real(-100_000), .integer(PropertyListInteger(99_999))])
    func anyOtherVersionIsRefused(_ version: PropertyListValue) {
        #expect(throws: KeyedArchiveError.self) { try Self.read(Self.archive(version: version, objects: Self.string)) }
    }

    /// Nothing checks `$objects[0]`: without "$null" there, UID 0 is an object like any other.
    @Test func objectsWithoutNullFirstAreRead() throws {
        let archive = try Self.read(Self.archive(objects: ["first", "second"], top: ["root": .uid(0), "other": .uid(1)]))
        #expect(archive.rootObject?.content == .string("first"))
        #expect(archive.object(.object(uid: 1))?.content == .string("second"))
    }

    @Test func anEmptyArchiveIsRead() throws {
        let archive = try Self.read(Self.archive(objects: [], top: [:]))
        #expect(archive.top.isEmpty)
    }

    /// A key that starts with one `$` (not `$class`, not unkeyed coding's `$0`, `$1`) is one no
    /// decoder asks for: a reference under it is never followed, and kept as the UID it is.
    @Test func aReferenceNoDecoderAsksForIsKeptAsItIs() throws {
        let archive = try Self.read(Self.archive(objects: Self.string, top: ["root": .uid(1), "$extra": .uid(99)]))
        #expect(archive.top.first { $0.key == "$extra" }?.value == .inline(.uid(99)))
        // Escaped (`$$extra`, a coder's key "$extra") or unkeyed (`$0`), it is followed, and refused.
        #expect(throws: KeyedArchiveError.self) { try Self.read(Self.archive(objects: Self.string, top: ["root": .uid(1), "$$extra": .uid(99)])) }
        #expect(throws: KeyedArchiveError.self) { try Self.read(Self.archive(objects: Self.string, top: ["root": .uid(1), "$0": .uid(99)])) }
    }

    /// An array, a UID, or a dictionary with a key that is not a string, stored in `$objects`, is
    /// handed back by Foundation as it is (`__SwiftValue.store`), UIDs in it unresolved; with
    /// `keepsEntriesThatAreNoObjects` so is it here. By default such an archive, which
    /// NSKeyedArchiver never writes, is refused, as the conformance contract asks
    /// (docs/parity.md).
    @Test(arguments: [
        PropertyListValue.array([.uid(99)]), .uid(99),
        .dictionary(PropertyListDictionary([(.integer(PropertyListInteger(1)), .uid(99)), (.string("$class"), .uid(2))])),
        ["a": .uid(99)],
    ])
    func entriesThatAreNoObjectsAreRefusedUnlessKeptAsFoundationKeepsThem(_ value: PropertyListValue) throws {
        let plist = Self.archive(objects: ["$null", value, ["$classname": "X"]])
        #expect(throws: KeyedArchiveError.self) { try Self.read(plist) }
        let archive = try Self.read(plist, options: Self.asFoundation)
        #expect(archive.rootObject?.archivedClass == nil)
        #expect(archive.rootObject?.content == .propertyList(value))
    }
}
