import Foundation

/// The Foundation side of the process benchmark: what a Swift program on Linux does with the
/// same file, run as its own process (`archivist-bench --foundation-unarchive FILE`,
/// `--foundation-plist FILE none|xml|binary OUT`).
enum FoundationPeer {
    /// `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)` with the transformer's default
    /// classes; exits 0 when it decodes, 1 otherwise.
    static func unarchive(path: String) -> Never {
        guard let data = FileManager.default.contents(atPath: path) else { exit(1) }
        let classes: [AnyClass] = [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self,
                                   NSData.self, NSURL.self, NSUUID.self, NSNull.self]
        let object = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data)
        exit(object == nil ? 1 : 0)
    }

    /// `PropertyListSerialization`: reads the file, then writes it as `format` to `output`
    /// unless `format` is `none`.
    static func propertyList(path: String, format: String, output: String) -> Never {
        guard let data = FileManager.default.contents(atPath: path),
              let value = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        else { exit(1) }
        let written: PropertyListSerialization.PropertyListFormat
        switch format {
        case "xml": written = .xml
        case "binary": written = .binary
        default: exit(0)
        }
        guard let bytes = try? PropertyListSerialization.data(fromPropertyList: value, format: written, options: 0),
              FileManager.default.createFile(atPath: output, contents: bytes)
        else { exit(1) }
        exit(0)
    }
}
