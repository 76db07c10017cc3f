import Bookmark
import Foundation
import FuzzDriver
import KeyedArchive

/// libFuzzer entry point: bytes → `Bookmark(data:)` with the default limits (header, the chain
/// of tables of contents, every record by offset), its named fields and the dictionary
/// `unarchive --expand-nested` writes of it; the same bytes → `AliasRecord(data:)` and its
/// dictionary; and `NestedPayload.expand`, the way data inside archives is identified. Any thrown
/// error is a pass; a crash, hang, leak or large allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBookmark(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    // Seeds without the magic still reach the tables: the same bytes after a `book` header.
    var candidates = [data]
    if !Bookmark.isBookmark(data), data.count >= 8 {
        var framed = Data("book".utf8)
        let length = UInt32(truncatingIfNeeded: 48 + data.count)
        framed += withUnsafeBytes(of: length.littleEndian) { Data($0) }
        framed += Data([0, 0, 4, 0x10, 48, 0, 0, 0]) + Data(count: 32) + data
        candidates.append(framed)
    }
    for bytes in candidates {
        if let bookmark = try? Bookmark(data: bytes) {
            _ = BookmarkPropertyList.value(of: bookmark)
            _ = bookmark[.pathComponents]
        }
        if let alias = try? AliasRecord(data: bytes) {
            _ = BookmarkPropertyList.value(of: alias)
        }
        _ = AliasRecord.isAliasRecord(bytes)
        _ = NestedPayload.expand(bytes)
    }
    return 0
}

// SwiftPM makes this top-level code the program's `main`; it hands over to libFuzzer.
var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzBookmark))
