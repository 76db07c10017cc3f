import Foundation

/// Writes classic alias records (version 2) for tests, field by field as the Alias Manager
/// laid them out, then the tagged fields and the end tag.
public struct AliasRecordWriter {
    public var kind = 0
    public var volumeName = "Macintosh HD"
    /// Seconds since 1904.
    public var volumeDate: UInt32 = 0
    public var fileSystemType = "H+"
    public var diskType = 0
    public var parentDirectoryID: UInt32 = 0
    public var fileName = ""
    public var fileID: UInt32 = 0
    public var fileDate: UInt32 = 0
    public var creatorCode = "????"
    public var typeCode = "????"
    public var levelsFrom = -1
    public var levelsTo = -1
    public var volumeAttributes: UInt32 = 0
    /// Tagged fields, in order: (tag, bytes).
    public var tags: [(Int, [UInt8])] = []

    public init() {}

    /// A UTF-16 name as tags 14 and 15 hold one: a character count, then UTF-16BE.
    public static func unicodeName(_ text: String) -> [UInt8] {
        let units = Array(text.utf16)
        return big(units.count, 2) + units.flatMap { big(Int($0), 2) }
    }

    static func big(_ value: Int, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - $0))) }
    }

    static func pascal(_ text: String, _ size: Int) -> [UInt8] {
        let bytes = Array(text.utf8.prefix(size - 1))
        return [UInt8(bytes.count)] + bytes + [UInt8](repeating: 0, count: size - 1 - bytes.count)
    }

    public func bytes() -> [UInt8] {
        var body = Self.big(kind, 2) + Self.pascal(volumeName, 28) + Self.big(Int(volumeDate), 4) + Array(fileSystemType.utf8.prefix(2))
        body += Self.big(diskType, 2) + Self.big(Int(parentDirectoryID), 4) + Self.pascal(fileName, 64) + Self.big(Int(fileID), 4)
        body += Self.big(Int(fileDate), 4) + Array(creatorCode.utf8.prefix(4)) + Array(typeCode.utf8.prefix(4))
        body += Self.big(levelsFrom, 2) + Self.big(levelsTo, 2) + Self.big(Int(volumeAttributes), 4) + [UInt8](repeating: 0, count: 12)
        for (tag, value) in tags {
            body += Self.big(tag, 2) + Self.big(value.count, 2) + value
            if value.count % 2 == 1 { body.append(0) }
        }
        body += [0xFF, 0xFF, 0, 0]
        return [0, 0, 0, 0] + Self.big(8 + body.count, 2) + Self.big(2, 2) + body
    }
}
