import Foundation
import Testing
import PropertyList

/// A Swift class as an app declares it: `NSSecureCoding`, encoding its fields with
/// `encode(_:forKey:)`. Blobs that name it by its old module are the rename story.
final class PaletteColor: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let red: Double
    let green: Double
    let blue: Double
    let alpha: Double
    let colorSpace: Int

    init(name: String, red: Double, green: Double, blue: Double, alpha: Double, colorSpace: Int) {
        self.name = name
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.colorSpace = colorSpace
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(red, forKey: "red")
        coder.encode(green, forKey: "green")
        coder.encode(blue, forKey: "blue")
        coder.encode(alpha, forKey: "alpha")
        coder.encode(colorSpace, forKey: "colorSpace")
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
        red = coder.decodeDouble(forKey: "red")
        green = coder.decodeDouble(forKey: "green")
        blue = coder.decodeDouble(forKey: "blue")
        alpha = coder.decodeDouble(forKey: "alpha")
        colorSpace = coder.decodeInteger(forKey: "colorSpace")
    }
}

/// `rewrite`, run as a user runs it: the class-rename data fix, and plain conversion.
@Suite struct RewriteCLITests {
    static let payload = #"{"name":"tint","red":0.25,"green":0.5,"blue":0.75,"alpha":1,"colorSpace":1}"#

    /// The class's name as Swift writes it into archives: `ArchivistCLITests.PaletteColor`.
    static let currentName = NSStringFromClass(PaletteColor.self)

    func archived(as className: String) throws -> Data {
        let r = try ArchivistProcess.run(["archive", "-", "--class", ".=\(className)"], stdin: Data(Self.payload.utf8))
        #expect(r.status == 0, "\(r.err)")
        return r.stdout
    }

    @Test(arguments: ["OldApp.Color", "_TtC6OldApp5Color"])
    func foundationRefusesTheOldNameAndDecodesTheRenamedBlobWithItsValues(writtenAs: String) throws {
        let old = try archived(as: writtenAs)
        // Linux Foundation ends the process on a class it has but does not allow; on a name no
        // class has, it returns an error. So the refusal is only asked for once we know no class
        // answers to the old name, in any of its forms.
        #expect(NSClassFromString("OldApp.Color") == nil && NSClassFromString(writtenAs) == nil)
        #expect(throws: (any Error).self) {
            _ = try NSKeyedUnarchiver.unarchivedObject(ofClass: PaletteColor.self, from: old)
        }
        // The fix names the class as the app knows it now; the old name matches in either form.
        let r = try ArchivistProcess.run(["rewrite", "-", "--rename-class", "OldApp.Color=\(Self.currentName)"], stdin: old)
        #expect(r.status == 0, "\(r.err)")
        let color = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: PaletteColor.self, from: r.stdout))
        #expect(color.name == "tint")
        #expect(color.red == 0.25 && color.green == 0.5 && color.blue == 0.75 && color.alpha == 1)
        #expect(color.colorSpace == 1)
    }

    @Test func theRenamedBlobKeepsEveryObjectAndUIDAndOnlyTheNameChanges() throws {
        let old = try archived(as: "OldApp.Color")
        let r = try ArchivistProcess.run(["rewrite", "-", "--rename-class", "OldApp.Color=NewApp.Color"], stdin: old)
        #expect(r.status == 0, "\(r.err)")
        let before = try PropertyListReader().read(old).value
        let after = try PropertyListReader().read(r.stdout).value
        let objectsBefore = try #require(before.dictionaryValue?["$objects"]?.arrayValue)
        let objectsAfter = try #require(after.dictionaryValue?["$objects"]?.arrayValue)
        #expect(objectsBefore.count == objectsAfter.count)
        var differing: [Int] = []
        for i in objectsBefore.indices where objectsBefore[i] != objectsAfter[i] { differing.append(i) }
        #expect(differing.count == 1)
        let description = try #require(differing.first.flatMap { objectsAfter[$0].dictionaryValue })
        #expect(description["$classname"] == "NewApp.Color")
        #expect(description["$classes"] == ["NewApp.Color", "NSObject"])
        #expect(before.dictionaryValue?["$top"] == after.dictionaryValue?["$top"])
    }

    @Test func aRewriteWithoutRenamesConvertsBetweenBinaryAndXMLAndBack() throws {
        let binary = try archived(as: "OldApp.Color")
        let xml = try ArchivistProcess.run(["rewrite", "-", "--to", "xml"], stdin: binary)
        #expect(xml.status == 0, "\(xml.err)")
        #expect(xml.out.hasPrefix("<?xml"))
        let back = try ArchivistProcess.run(["rewrite", "-", "--to", "binary"], stdin: xml.stdout)
        // The same property list (XML lists a dictionary's keys sorted, as Foundation writes it).
        #expect(try PropertyListReader().read(back.stdout).value == PropertyListReader().read(binary).value)
        #expect(try PropertyListReader().read(xml.stdout).value == PropertyListReader().read(binary).value)
        // An XML archive stays XML unless --to says otherwise.
        #expect(try ArchivistProcess.run(["rewrite", "-"], stdin: xml.stdout).stdout == xml.stdout)
    }

    @Test func aNestedSwiftClassIsWrittenMangledAsSwiftNamesIt() throws {
        let r = try ArchivistProcess.run(["rewrite", "-", "--rename-class", "OldApp.Color=NewApp.Palette.Color"],
                                         stdin: try archived(as: "OldApp.Color"))
        #expect(r.status == 0, "\(r.err)")
        let shown = try ArchivistProcess.run(["inspect", "-", "--format", "json", "--pretty"], stdin: r.stdout)
        #expect(shown.out.contains(#""class" : "_TtCC6NewApp7Palette5Color""#), "\(shown.out)")
        #expect(shown.out.contains(#""readableClass" : "NewApp.Palette.Color""#))
    }

    /// Each bad request: exit 1, one line naming the problem and the file, nothing written.
    @Test(arguments: [
        (["--rename-class", "OldApp.Color=New App.Color"], "--rename-class OldApp.Color=New App.Color: \"New App.Color\" holds a space, which no class name has"),
        (["--rename-class", "OldApp.Color=9Lives"], "--rename-class OldApp.Color=9Lives: \"9Lives\" has a part that starts with '9', not a letter or _"),
        (["--rename-class", "OldApp.Colour=NewApp.Color"], "--rename-class OldApp.Colour=NewApp.Color: no class of the archive is OldApp.Colour (its classes: OldApp.Color)"),
        (["--rename-class", "=NewApp.Color"], "--rename-class =NewApp.Color: the old class name is empty"),
    ])
    func aBadRenameExitsOneAndWritesNothing(options: [String], message: String) throws {
        let input = ArchivistProcess.temporaryFile("old.bplist")
        try archived(as: "OldApp.Color").write(to: URL(fileURLWithPath: input))
        let output = ArchivistProcess.temporaryFile("new.bplist")
        let r = try ArchivistProcess.run(["rewrite", input, "-o", output] + options)
        #expect(r.status == 1)
        #expect(r.err == "archivist: \(input): \(message)\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aRenameWithoutEqualsIsAUsageError() throws {
        let r = try ArchivistProcess.run(["rewrite", "-", "--rename-class", "OldApp.Color"], stdin: Data())
        #expect(r.status == 64)
        #expect(r.err.contains("--rename-class takes OLD=NEW"))
    }

    @Test func somethingThatIsNotAnArchiveIsRefused() throws {
        let r = try ArchivistProcess.run(["rewrite", "-", "--to", "xml"], stdin: Data(#"{"a":1}"#.utf8))
        #expect(r.status == 1)
        #expect(r.err.contains("not a keyed archive"), "\(r.err)")
        #expect(r.out.isEmpty)
    }
}
