import Bookmark
import Foundation
import PropertyList

/// Bookmark data and alias records as property-list dictionaries of their named fields: what
/// `unarchive --expand-nested` writes for a bookmark held in data, what `inspect --format json`
/// shows beside it, what `diff` compares and what `sweep` reads paths from.
///
/// A bookmark becomes `path`, `pathComponents`, `fileIDs`, `fileCreationDate`,
/// `resourceProperties`, `volume` (`name`, `uuid`, `path`, `url`, `mountPoint`, `capacity`,
/// `creationDate`, `isRoot`, `properties`), `creatorUserName`, `creatorUID`,
/// `containingFolderIndex`, `wasFileReference`, `creationOptions` (with `securityScoped`),
/// `securityExtensions`, `localizedName`, `creationTime`, `aliasRecord`, and `otherFields`:
/// every other entry of every table with its key, name when known, type and value. Members
/// whose key the bookmark lacks are left out. Dates are dates; data is data.
public enum BookmarkPropertyList {
    public static func value(of bookmark: Bookmark) -> PropertyListValue {
        let f = bookmark.fields
        var d = PropertyListDictionary()
        func put(_ key: String, _ value: PropertyListValue?) {
            if let value { d.append(key: .string(key), value: value) }
        }
        put("path", f.path.map { .string($0) })
        put("pathComponents", f.pathComponents.map { .array($0.map { .string($0) }) })
        put("fileIDs", f.fileIDs.map { .array($0.map(integer)) })
        put("fileCreationDate", f.fileCreationDate.map(date))
        put("resourceProperties", f.resourceProperties.map(flags))
        var volume = PropertyListDictionary()
        func putVolume(_ key: String, _ value: PropertyListValue?) {
            if let value { volume.append(key: .string(key), value: value) }
        }
        putVolume("name", f.volumeName.map { .string($0) })
        putVolume("uuid", f.volumeUUID.map { .string($0) })
        putVolume("path", f.volumePath.map { .string($0) })
        putVolume("url", f.volumeURL.map { .string($0) })
        putVolume("mountPoint", f.volumeMountPoint.map { .string($0) })
        putVolume("capacity", f.volumeCapacity.map(integer))
        putVolume("creationDate", f.volumeCreationDate.map(date))
        putVolume("isRoot", f.volumeIsRoot.map { .bool($0) })
        putVolume("properties", f.volumeProperties.map(flags))
        if !volume.isEmpty { put("volume", .dictionary(volume)) }
        put("creatorUserName", f.creatorUserName.map { .string($0) })
        put("creatorUID", f.creatorUID.map(integer))
        put("containingFolderIndex", f.containingFolderIndex.map(integer))
        put("wasFileReference", f.wasFileReference.map { .bool($0) })
        if let options = f.creationOptions {
            put("creationOptions", .dictionary(entries([
                ("value", integer(Int64(bitPattern: options.rawValue))),
                ("names", .array(options.names.map { .string($0) })),
                ("securityScoped", .bool(options.withSecurityScope)),
            ])))
        }
        if !f.securityExtensions.isEmpty {
            put("securityExtensions", .array(f.securityExtensions.map { e in
                var x = entries([("access", .string(e.readOnly ? "read-only" : "read-write"))])
                if let c = e.extensionClass { x.append(key: "class", value: .string(c)) }
                if let p = e.path { x.append(key: "path", value: .string(p)) }
                x.append(key: "token", value: .string(e.token))
                return .dictionary(x)
            }))
        }
        put("localizedName", f.localizedName.map { .string($0) })
        put("creationTime", f.creationTime.map(date))
        put("aliasRecord", f.aliasRecord.map { value(of: $0) })
        var others: [PropertyListValue] = []
        for (index, table) in bookmark.tables.enumerated() {
            for entry in table.entries where index > 0 || !BookmarkFields.namedKeys.contains(entry.key) || !isNamed(entry, f) {
                var x = PropertyListDictionary()
                if bookmark.tables.count > 1 { x.append(key: "table", value: integer(Int64(table.identifier))) }
                x.append(key: "key", value: .string(entry.key.description))
                if let name = entry.key.name { x.append(key: "name", value: .string(name)) }
                x.append(key: "type", value: .string(typeName(entry.value)))
                x.append(key: "value", value: plist(entry.value))
                others.append(.dictionary(x))
            }
        }
        if !others.isEmpty { put("otherFields", .array(others)) }
        return .dictionary(d)
    }

    /// Whether `fields` took the entry's value (a well-known key whose record had the expected type).
    static func isNamed(_ entry: BookmarkEntry, _ f: BookmarkFields) -> Bool {
        switch entry.key {
        case .pathComponents: f.pathComponents != nil
        case .fileIDs: f.fileIDs != nil
        case .fileCreationDate: f.fileCreationDate != nil
        case .resourceProperties: f.resourceProperties != nil
        case .volumePath: f.volumePath != nil
        case .volumeURL: f.volumeURL != nil
        case .volumeName: f.volumeName != nil
        case .volumeUUID: f.volumeUUID != nil
        case .volumeCapacity: f.volumeCapacity != nil
        case .volumeCreationDate: f.volumeCreationDate != nil
        case .volumeProperties: f.volumeProperties != nil
        case .volumeIsRoot: f.volumeIsRoot != nil
        case .volumeMountPoint: f.volumeMountPoint != nil
        case .containingFolderIndex: f.containingFolderIndex != nil
        case .creatorUserName: f.creatorUserName != nil
        case .creatorUID: f.creatorUID != nil
        case .wasFileReference: f.wasFileReference != nil
        case .creationOptions: f.creationOptions != nil
        case .localizedName: f.localizedName != nil
        case .creationTime: f.creationTime != nil
        case .readWriteSecurityExtension, .readOnlySecurityExtension: !f.securityExtensions.isEmpty
        default: false
        }
    }

    /// A classic alias record's fields.
    public static func value(of alias: AliasRecord) -> PropertyListValue {
        var d = PropertyListDictionary()
        func put(_ key: String, _ value: PropertyListValue?) {
            if let value { d.append(key: .string(key), value: value) }
        }
        put("version", integer(Int64(alias.version)))
        put("kind", .string(alias.kind == 1 ? "folder" : alias.kind == 0 ? "file" : "\(alias.kind)"))
        put("path", alias.posixPath.map { .string($0) })
        put("fileName", .string(alias.fileName))
        put("fileID", integer(Int64(alias.fileID)))
        put("parentDirectoryID", integer(Int64(alias.parentDirectoryID)))
        put("fileCreationDate", date(alias.fileCreationDate))
        put("folderName", alias.folderName.map { .string($0) })
        put("directoryIDs", alias.directoryIDs.map { .array($0.map { integer(Int64($0)) }) })
        put("carbonPath", alias.carbonPath.map { .string($0) })
        put("creatorCode", alias.creatorCode.map { .string($0) })
        put("typeCode", alias.typeCode.map { .string($0) })
        var volume = entries([("name", .string(alias.volumeName)), ("creationDate", date(alias.volumeCreationDate)),
                                             ("fileSystemType", .string(alias.fileSystemType)), ("diskType", integer(Int64(alias.diskType))),
                                             ("attributes", integer(Int64(alias.volumeAttributes)))])
        if let mount = alias.volumeMountPoint { volume.append(key: "mountPoint", value: .string(mount)) }
        if let image = alias.diskImage { volume.append(key: "diskImage", value: value(of: image.record)) }
        put("volume", .dictionary(volume))
        put("appleShareServer", alias.appleShareServer.map { .string($0) })
        put("appleShareZone", alias.appleShareZone.map { .string($0) })
        put("appleShareUser", alias.appleShareUser.map { .string($0) })
        put("userHomePrefixLength", alias.userHomePrefixLength.map { integer(Int64($0)) })
        if !alias.otherTags.isEmpty {
            put("otherTags", .array(alias.otherTags.map {
                .dictionary(entries([("tag", integer(Int64($0.tag))), ("value", .data($0.bytes))]))
            }))
        }
        return .dictionary(d)
    }

    static func entries(_ pairs: [(String, PropertyListValue)]) -> PropertyListDictionary {
        PropertyListDictionary(pairs.map { (PropertyListValue.string($0.0), $0.1) })
    }

    static func integer(_ v: Int64) -> PropertyListValue { .integer(PropertyListInteger(Int(v))) }
    static func date(_ seconds: Double) -> PropertyListValue { .date(Date(timeIntervalSinceReferenceDate: seconds)) }

    static func flags(_ f: BookmarkPropertyFlags) -> PropertyListValue {
        .dictionary(entries([
            ("names", .array(f.names.map { .string($0) })),
            ("flags", integer(Int64(bitPattern: f.flags))), ("validFlags", integer(Int64(bitPattern: f.validFlags))),
        ]))
    }

    /// The type of a record, as `otherFields` names it.
    static func typeName(_ v: BookmarkValue) -> String {
        switch v {
        case .string: "string"
        case .data: "data"
        case .number: "number"
        case .date: "date"
        case .bool: "bool"
        case .array: "array"
        case .dictionary: "dictionary"
        case .uuid: "uuid"
        case .url, .relativeURL: "url"
        case .null: "null"
        case .raw(let type, _): "0x" + String(type, radix: 16)
        }
    }

    /// A record as a property-list value: arrays and dictionaries (with string keys) as such,
    /// a dictionary with other keys as pairs, a UUID and a URL as text, an unknown record as
    /// its bytes.
    static func plist(_ v: BookmarkValue) -> PropertyListValue {
        switch v {
        case .string(let s): return .string(s)
        case .data(let d): return .data(d)
        case .number(let n):
            switch n.value {
            case .integer(let i): return integer(i)
            case .real(let r): return .real(r)
            }
        case .date(let d): return date(d)
        case .bool(let b): return .bool(b)
        case .array(let a): return .array(a.map(plist))
        case .dictionary(let pairs):
            if pairs.allSatisfy({ $0.key.stringValue != nil }) {
                return .dictionary(PropertyListDictionary(pairs.map { (.string($0.key.stringValue ?? ""), plist($0.value)) }))
            }
            return .array(pairs.map { .array([plist($0.key), plist($0.value)]) })
        case .uuid(let u): return .string(u.uuidString)
        case .url, .relativeURL: return .string(v.urlString ?? "")
        case .null: return .null
        case .raw(_, let bytes): return .data(bytes)
        }
    }
}
