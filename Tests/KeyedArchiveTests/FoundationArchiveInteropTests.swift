import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// Foundation's NSKeyedArchiver on Linux is a real peer: what it writes we decode, and what we
/// write it reads with secure coding on.
@Suite struct FoundationArchiveInteropTests {
    static let allowed: [AnyClass] = [NSArray.self, NSDictionary.self, NSSet.self, NSOrderedSet.self, NSString.self,
                                      NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]

    func archive(_ object: Any) throws -> KeyedArchive {
        let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
        return try KeyedArchive(data: data)
    }

    @Test func foundationsArraysOfStringsAndNumbersDecode() throws {
        let a = try archive(NSArray(array: ["one", 2, 3.5, true]))
        guard case .array(let elements)? = a.rootObject?.content else {
            Issue.record("root is \(String(describing: a.rootObject?.content))")
            return
        }
        let contents = elements.compactMap { a.object($0)?.content }
        #expect(contents == [.string("one"), .number(.integer(PropertyListInteger(2))), .number(.real(3.5)), .number(.bool(true))])
    }

    @Test func foundationsDictionariesSetsAndOrderedSetsDecode() throws {
        let d = try archive(NSDictionary(dictionary: ["k": "v"]))
        guard case .dictionary(let keys, let values)? = d.rootObject?.content else {
            Issue.record("not a dictionary")
            return
        }
        #expect(keys.compactMap { d.object($0)?.content } == [.string("k")])
        #expect(values.compactMap { d.object($0)?.content } == [.string("v")])

        let s = try archive(NSSet(array: [1, 2]))
        if case .set(let members)? = s.rootObject?.content { #expect(members.count == 2) } else { Issue.record("not a set") }

        let o = try archive(NSOrderedSet(array: ["x", "y"]))
        if case .orderedSet(let members)? = o.rootObject?.content {
            #expect(members.compactMap { o.object($0)?.content } == [.string("x"), .string("y")])
        } else { Issue.record("not an ordered set") }
    }

    @Test func foundationsDatesDataURLsUUIDsAndNullDecode() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12345.5)
        let uuid = UUID()
        let base = NSURL(string: "https://example.com/dir/")!
        let url = NSURL(string: "file.txt", relativeTo: base as URL)!
        let a = try archive(NSArray(array: [date, Data([1, 2, 3]), url, NSUUID(uuidString: uuid.uuidString)!, NSNull()]))
        guard case .array(let e)? = a.rootObject?.content, e.count == 5 else {
            Issue.record("not a five-element array")
            return
        }
        #expect(a.object(e[0])?.content == .date(date))
        #expect(a.object(e[1])?.content == .data(Data([1, 2, 3])))
        guard case .url(_, let relative)? = a.object(e[2])?.content else {
            Issue.record("not a URL")
            return
        }
        // Linux Foundation archives the absolute string with no base; Apple keeps the base
        // (see the URLTest fixture's tests).
        #expect(a.object(relative)?.content == .string("https://example.com/dir/file.txt"))
        #expect(a.object(e[3])?.content == .uuid(uuid))
        #expect(a.object(e[4])?.content == .null)
    }

    @Test func anObjectFoundationArchivesTwiceIsOneSharedObject() throws {
        let shared = NSMutableArray(array: ["x"])
        let a = try archive(NSArray(array: [shared, shared]))
        guard case .array(let e)? = a.rootObject?.content, e.count == 2 else {
            Issue.record("not a two-element array")
            return
        }
        #expect(e[0] == e[1])
        #expect(a.object(e[0])?.className.hasSuffix("Array") == true)
    }

    @Test func foundationUnarchivesWhatWeWriteWithSecureCoding() throws {
        var b = KeyedArchiveBuilder()
        let uuid = UUID()
        let base = b.url("https://example.com/dir/")
        let elements: [ArchivedValue] = [
            b.string("hello"),
            b.number(.integer(PropertyListInteger(42))),
            b.number(.real(2.5)),
            b.number(.bool(true)),
            b.date(Date(timeIntervalSinceReferenceDate: 1000)),
            b.data(Data([9, 8, 7])),
            b.url("file.txt", base: base),
            b.uuid(uuid),
            b.null(),
            b.dictionary(keys: [b.string("k")], values: [b.set([b.string("s")])]),
        ]
        let root = b.array(elements)
        for format in [PropertyListFormat.binary, .xml] {
            let data = try KeyedArchiveWriter().write(b.archive(root: root), format: format)
            let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.allowed, from: data)
            guard let array = object as? [Any], array.count == elements.count else {
                Issue.record("Foundation read \(String(describing: object))")
                continue
            }
            #expect(array[0] as? String == "hello")
            #expect((array[1] as? NSNumber)?.intValue == 42)
            #expect((array[2] as? NSNumber)?.doubleValue == 2.5)
            #expect((array[3] as? NSNumber)?.boolValue == true)
            #expect(array[4] as? Date == Date(timeIntervalSinceReferenceDate: 1000))
            #expect(array[5] as? Data == Data([9, 8, 7]))
            #expect((array[6] as? URL)?.absoluteString == "https://example.com/dir/file.txt")
            #expect((array[7] as? UUID) == uuid || (array[7] as? NSUUID)?.uuidString == uuid.uuidString)
            #expect(array[8] is NSNull)
            #expect(((array[9] as? [String: Any])?["k"] as? Set<String>) == ["s"] || ((array[9] as? NSDictionary)?["k"] as? NSSet)?.count == 1)
        }
    }
}
