import ArchivePayload
import CoreDataModel
import CoreDataStore
import PropertyList
import Testing

/// `ErrorCode`, which `StoreError` and `ModelError` (and `CodegenError`, `PostgresError`) share:
/// each code is named after its static member, and reads back from that name.
struct ErrorCodeTests {
    @Test func aStoreErrorCodeIsNamedAfterItsMemberAndReadsBackFromTheName() {
        let codes: [StoreError.Code] = [.cannotOpen, .sqlite, .notFound, .malformedSchema, .backupFailed, .invalidRequest]
        #expect(codes.map(\.rawValue) == ["cannotOpen", "sqlite", "notFound", "malformedSchema", "backupFailed", "invalidRequest"])
        #expect(Set(codes.map(\.rawValue)) == StoreError.codeNames)
        for code in codes {
            #expect(StoreError.Code(rawValue: code.rawValue) == code)
            #expect(code.description == code.rawValue)
        }
        #expect(StoreError.Code(rawValue: "cannotRead") == nil)
        #expect(StoreError.Code.notFound != .sqlite)
    }

    @Test func aModelErrorCodeIsNamedAfterItsMemberAndAnotherErrorsNameIsNone() {
        let codes: [ModelError.Code] = [.cannotRead, .notAModel, .malformed, .limitExceeded, .noMatchingVersion]
        #expect(Set(codes.map(\.rawValue)) == ModelError.codeNames)
        #expect(codes.allSatisfy { ModelError.Code(rawValue: $0.rawValue) == $0 })
        #expect(ModelError.Code(rawValue: "cannotOpen") == nil)
    }

    @Test func aPayloadErrorCodeIsNamedAfterItsMemberAndReadsBackFromTheName() {
        let codes: [PayloadError.Code] = [.cycle, .noRoot, .tooDeep, .tooLarge, .refused, .invalidMapping]
        #expect(Set(codes.map(\.rawValue)) == PayloadError.codeNames)
        #expect(codes.allSatisfy { PayloadError.Code(rawValue: $0.rawValue) == $0 })
        #expect(PayloadError.Code(rawValue: "malformed") == nil)
    }

    @Test func anErrorsDescriptionStillSaysWhere() {
        let error = StoreError(.notFound, "no such column", path: "/tmp/x.sqlite", table: "ZNOTE", column: "ZBODY", primaryKey: 4)
        #expect(error.description == "no such column at ZNOTE.ZBODY, Z_PK 4")
        #expect(ModelError(.malformed, "bad", location: "line 4").description == "bad at line 4")
    }
}
