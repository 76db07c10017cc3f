import Bookmark
import KeyedArchive
import NIBArchive
import PropertyList
import Testing
import TypedStream

/// The readers' error codes, which share `ErrorCode` with the store's and the model's: each
/// error's own kinds and the kinds declared once for every reader (`malformed`,
/// `limitExceeded`, and `truncated` where input can end too soon) are named after their
/// members, read back from those names, and a kind an error lacks is no code of it.
struct ReaderErrorCodeTests {
    @Test func aSharedKindIsACodeOfEveryReaderThatHasItAndOfNoOther() {
        #expect(PropertyListError.Code.truncated.rawValue == "truncated")
        #expect(TypedStreamError.Code(rawValue: "truncated") == .truncated)
        #expect(NIBArchiveError.Code(rawValue: "malformed") == .malformed)
        #expect(BookmarkError.Code(rawValue: "limitExceeded") == .limitExceeded)
        #expect(KeyedArchiveError.Code(rawValue: "malformed") == .malformed)
        #expect(KeyedArchiveError.Code(rawValue: "truncated") == nil)
        #expect(PropertyListEditError.Code(rawValue: "malformed") == nil)
    }

    @Test func everyCodeOfAReaderErrorIsAmongItsNamesAndTheNamesAreAllItsCodes() {
        let plist: [PropertyListError.Code] = [.unrecognizedFormat, .truncated, .malformed, .invalidValue, .limitExceeded, .cycle, .unrepresentable]
        #expect(Set(plist.map(\.rawValue)) == PropertyListError.codeNames)
        let edit: [PropertyListEditError.Code] = [.notFound, .alreadyExists, .notAnArray, .invalidIndex, .indexOutOfRange, .notAContainer,
                                                  .rootNotEditable]
        #expect(Set(edit.map(\.rawValue)) == PropertyListEditError.codeNames)
        let typedStream: [TypedStreamError.Code] = [.notATypedStream, .unsupportedVersion, .truncated, .malformed, .limitExceeded]
        #expect(Set(typedStream.map(\.rawValue)) == TypedStreamError.codeNames)
        let nib: [NIBArchiveError.Code] = [.notANIBArchive, .truncated, .malformed, .limitExceeded]
        #expect(Set(nib.map(\.rawValue)) == NIBArchiveError.codeNames)
        let bookmark: [BookmarkError.Code] = [.notABookmark, .truncated, .malformed, .limitExceeded]
        #expect(Set(bookmark.map(\.rawValue)) == BookmarkError.codeNames)
        let archive: [KeyedArchiveError.Code] = [.propertyList, .notAnArchive, .malformed, .limitExceeded, .invalidRequest, .typedStream,
                                                 .nibArchive]
        #expect(Set(archive.map(\.rawValue)) == KeyedArchiveError.codeNames)
        #expect(archive.allSatisfy { KeyedArchiveError.Code(rawValue: $0.rawValue) == $0 })
    }
}
