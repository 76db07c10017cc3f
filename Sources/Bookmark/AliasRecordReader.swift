import Foundation

/// Reads an alias record's fixed part and its tagged fields, each read checked against the
/// bytes left.
struct AliasRecordReader {
    let bytes: UnsafeRawBufferPointer
    let depth: Int
    var position = 0
    var end = 0

    /// How deep aliases of disk images may nest inside one another (tag 20).
    static let maximumDepth = 8

    init(bytes: UnsafeRawBufferPointer, depth: Int) {
        self.bytes = bytes
        self.depth = depth
    }

    func need(_ count: Int, _ what: String) throws(BookmarkError) {
        guard count <= end - position else {
            throw BookmarkError(.truncated, "the alias record ends inside \(what)", offset: position)
        }
    }

    mutating func integer(_ width: Int, _ what: String) throws(BookmarkError) -> UInt64 {
        try need(width, what)
        var value: UInt64 = 0
        for i in 0..<width { value = value << 8 | UInt64(bytes[position + i]) }
        position += width
        return value
    }

    mutating func raw(_ count: Int, _ what: String) throws(BookmarkError) -> UnsafeRawBufferPointer {
        try need(count, what)
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
    }

    /// Text as UTF-8 when it is, else Mac OS Roman (what the Alias Manager wrote).
    static func text(_ raw: UnsafeRawBufferPointer) -> String {
        if let s = String(validating: raw, as: UTF8.self) { return s }
        return String(bytes: raw, encoding: .macOSRoman) ?? String(decoding: raw, as: UTF8.self)
    }

    /// A Pascal string in a field of `size` bytes (its length byte included).
    mutating func pascal(_ size: Int, _ what: String) throws(BookmarkError) -> String {
        let field = try raw(size, what)
        let length = min(Int(field[0]), size - 1)
        return Self.text(UnsafeRawBufferPointer(rebasing: field[1..<1 + length]))
    }

    /// Four characters (a creator, type or file-system code), or its hex when not printable.
    static func code(_ raw: UnsafeRawBufferPointer) -> String {
        if raw.allSatisfy({ (0x20...0x7E).contains($0) }) { return String(decoding: raw, as: UTF8.self) }
        return raw.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    static func date(_ seconds1904: Double) -> Double { seconds1904 - AliasRecord.epochOffset }

    mutating func read() throws(BookmarkError) -> AliasRecord {
        end = bytes.count
        guard bytes.count >= 8 else {
            throw BookmarkError(.notABookmark, "not an alias record: \(bytes.count) bytes", offset: 0)
        }
        let applicationInfo = Data(try raw(4, "the application information"))
        let size = Int(try integer(2, "the record size"))
        let version = Int(try integer(2, "the version"))
        guard version == 2 || version == 3 else {
            throw BookmarkError(.notABookmark, "not an alias record: version \(version) (2 and 3 are read)", offset: 6)
        }
        // Rule: the record lies inside the bytes; nothing after its length is read.
        guard size >= 8, size <= bytes.count else {
            throw BookmarkError(.truncated, "the alias record gives a size of \(size) bytes and has \(bytes.count)", offset: 4)
        }
        end = size
        var record: AliasRecord
        let kind = Int(try integer(2, "the kind"))
        if version == 2 {
            let volumeName = try pascal(28, "the volume name")
            let volumeDate = Self.date(Double(try integer(4, "the volume date")))
            let fsType = Self.code(try raw(2, "the file-system type"))
            let diskType = Int(try integer(2, "the disk type"))
            let parent = UInt32(try integer(4, "the parent directory ID"))
            let fileName = try pascal(64, "the file name")
            let fileID = UInt32(try integer(4, "the file ID"))
            let fileDate = Self.date(Double(try integer(4, "the file date")))
            let creator = Self.code(try raw(4, "the creator code"))
            let type = Self.code(try raw(4, "the type code"))
            let levelsFrom = Int(Int16(truncatingIfNeeded: try integer(2, "the levels from")))
            let levelsTo = Int(Int16(truncatingIfNeeded: try integer(2, "the levels to")))
            let attributes = UInt32(try integer(4, "the volume attributes"))
            _ = try raw(12, "the reserved bytes")
            record = AliasRecord(applicationInfo: applicationInfo, version: version, kind: kind, volumeName: volumeName,
                                 volumeCreationDate: volumeDate, fileSystemType: fsType, diskType: diskType, parentDirectoryID: parent,
                                 fileName: fileName, fileID: fileID, fileCreationDate: fileDate, creatorCode: creator, typeCode: type,
                                 levelsFrom: levelsFrom, levelsTo: levelsTo, volumeAttributes: attributes, otherTags: [])
        } else {
            let volumeDate = Self.date(Double(try integer(8, "the volume date")) / 65536)
            let fsType = Self.code(try raw(4, "the file-system type"))
            let diskType = Int(try integer(2, "the disk type"))
            let parent = UInt32(try integer(4, "the parent directory ID"))
            let fileID = UInt32(try integer(4, "the file ID"))
            let fileDate = Self.date(Double(try integer(8, "the file date")) / 65536)
            let attributes = UInt32(try integer(4, "the volume attributes"))
            _ = try raw(14, "the reserved bytes")
            record = AliasRecord(applicationInfo: applicationInfo, version: version, kind: kind, volumeName: "",
                                 volumeCreationDate: volumeDate, fileSystemType: fsType, diskType: diskType, parentDirectoryID: parent,
                                 fileName: "", fileID: fileID, fileCreationDate: fileDate, volumeAttributes: attributes, otherTags: [])
        }
        try readTags(into: &record)
        return record
    }

    /// The tagged fields: a 16-bit tag, a 16-bit length, the bytes padded to an even length,
    /// until the tag -1.
    mutating func readTags(into record: inout AliasRecord) throws(BookmarkError) {
        while true {
            let tagStart = position
            let tag = Int(Int16(truncatingIfNeeded: try integer(2, "a tag")))
            if tag == -1 { return }
            let length = Int(try integer(2, "a tag's length"))
            let value = try raw(length, "tag \(tag)'s \(length) bytes")
            if length & 1 == 1, position < end { position += 1 }
            func utf16() -> String? {
                // A 16-bit character count, then UTF-16BE.
                guard value.count >= 2 else { return nil }
                let count = Int(value[0]) << 8 | Int(value[1])
                guard 2 + 2 * count <= value.count else { return nil }
                let units = (0..<count).map { UInt16(value[2 + 2 * $0]) << 8 | UInt16(value[3 + 2 * $0]) }
                return String(decoding: units, as: UTF16.self)
            }
            func highResolutionDate() -> Double? {
                guard value.count == 8 else { return nil }
                let raw = value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                return Self.date(Double(raw) / 65536)
            }
            var named = true
            /// A tag's value that parses replaces the field; one that does not is kept among the other tags.
            func keep<Value>(_ parsed: Value?, in field: WritableKeyPath<AliasRecord, Value>) {
                if let parsed { record[keyPath: field] = parsed } else { named = false }
            }
            switch tag {
            case 0: record.folderName = Self.text(value)
            case 1:
                guard value.count % 4 == 0 else { named = false; break }
                record.directoryIDs = stride(from: 0, to: value.count, by: 4).map {
                    UInt32(value[$0]) << 24 | UInt32(value[$0 + 1]) << 16 | UInt32(value[$0 + 2]) << 8 | UInt32(value[$0 + 3])
                }
            case 2: record.carbonPath = Self.text(value)
            case 3: record.appleShareZone = Self.text(value)
            case 4: record.appleShareServer = Self.text(value)
            case 5: record.appleShareUser = Self.text(value)
            case 14: keep(utf16(), in: \.fileName)
            case 15: keep(utf16(), in: \.volumeName)
            case 16: keep(highResolutionDate(), in: \.volumeCreationDate)
            case 17: keep(highResolutionDate(), in: \.fileCreationDate)
            case 18: record.posixPath = Self.text(value)
            case 19: record.volumeMountPoint = Self.text(value)
            case 20:
                guard depth < Self.maximumDepth else {
                    throw BookmarkError(.limitExceeded, "aliases of disk images nested deeper than \(Self.maximumDepth)", offset: tagStart)
                }
                guard let inner = try? AliasRecord(data: Data(value), depth: depth + 1) else { named = false; break }
                record.diskImage = AliasRecord.Box(inner)
            case 21:
                guard value.count == 2 else { named = false; break }
                record.userHomePrefixLength = Int(value[0]) << 8 | Int(value[1])
            default:
                named = false
            }
            if !named { record.otherTags.append(AliasRecord.Tag(tag: tag, bytes: Data(value))) }
        }
    }
}

extension AliasRecord {
    init(applicationInfo: Data, version: Int, kind: Int, volumeName: String, volumeCreationDate: Double, fileSystemType: String,
         diskType: Int, parentDirectoryID: UInt32, fileName: String, fileID: UInt32, fileCreationDate: Double,
         creatorCode: String? = nil, typeCode: String? = nil, levelsFrom: Int? = nil, levelsTo: Int? = nil, volumeAttributes: UInt32,
         otherTags: [Tag]) {
        self.applicationInfo = applicationInfo
        self.version = version
        self.kind = kind
        self.volumeName = volumeName
        self.volumeCreationDate = volumeCreationDate
        self.fileSystemType = fileSystemType
        self.diskType = diskType
        self.parentDirectoryID = parentDirectoryID
        self.fileName = fileName
        self.fileID = fileID
        self.fileCreationDate = fileCreationDate
        self.creatorCode = creatorCode
        self.typeCode = typeCode
        self.levelsFrom = levelsFrom
        self.levelsTo = levelsTo
        self.volumeAttributes = volumeAttributes
        self.otherTags = otherTags
    }
}
