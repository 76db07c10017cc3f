import Foundation
import Testing
@testable import ArchivePayload
import KeyedArchive

/// `RequiredClasses`: the classes a set of archives needs a transformer to allow, from nothing
/// or beyond the secure defaults (Fixtures/archives, the USERS.md patterns).
@Suite struct RequiredClassesTests {
    static func required(_ files: [String], beyond list: AllowList) throws -> [String] {
        var required = RequiredClasses(beyond: list)
        for file in files { required.add(try Fixture.archive(file)) }
        return required.classes
    }

    @Test(arguments: [
        (["uicolor-tint.bplist"], ["UIColor"], ["UIColor"]),
        (["legacy-string-array.bplist"], ["NSArray", "NSString"], []),
        (["user-details-nscoding.bplist"], ["MyApp.UserDetails", "NSString"], ["MyApp.UserDetails"]),
        (["configuration-box-json.bplist"], ["MyApp.ConfigurationBox", "NSData"], ["MyApp.ConfigurationBox"]),
        (["uicolor-tint.bplist", "legacy-string-array.bplist"], ["NSArray", "UIColor", "NSString"], ["UIColor"]),
    ])
    func theClassesNeededFromNothingAndBeyondTheSecureDefaults(files: [String], fromNothing: [String], beyondDefaults: [String]) throws {
        #expect(try Set(Self.required(files, beyond: AllowList(classes: []))) == Set(fromNothing))
        #expect(try Self.required(files, beyond: .transformerDefault) == beyondDefaults)
    }
}
