import KeyedArchive
import PropertyList

/// `check --format json`: one record per file.
extension ArchiveCheck {
    /// The record `archivist check --format json` writes for the archive `file`.
    public func jsonValue(file: String) -> PropertyListValue {
        var d = PropertyListDictionary()
        d.append(key: "file", value: .string(file))
        d.append(key: "accepted", value: .bool(report.isAccepted))
        if let nib = report.nibArchive {
            d.append(key: "archiver", value: "NIBArchive")
            d.append(key: "nibArchive", value: .dictionary(PropertyListDictionary([
                ("coderVersion", .integer(PropertyListInteger(nib.coderVersion))),
                ("reason", "a compiled nib: no secure-coding blob (UINib and NSNib instantiate every class it names, and no secure unarchiver reads one)"),
            ])))
        }
        if let stream = report.typedStream {
            d.append(key: "archiver", value: "NSArchiver")
            d.append(key: "typedStream", value: .dictionary(PropertyListDictionary([
                ("byteOrder", .string(stream.byteOrder)), ("systemVersion", .integer(PropertyListInteger(stream.systemVersion))),
                ("reason", "an NSArchiver typedstream: no secure unarchiver reads one, whatever classes it holds"),
            ])))
        }
        d.append(key: "allowedClasses", value: .array(report.allowList.classes.map { .string($0) }))
        d.append(key: "violations", value: .array(report.violations.map { v in
            .dictionary(PropertyListDictionary([
                ("class", .string(v.className)), ("readableClass", .string(v.readableClassName)),
                ("uid", .integer(PropertyListInteger(v.uid))), ("path", .string(v.path)),
                ("judgedHierarchy", .array(v.judgedChain.map { .string($0) })), ("reason", .string(v.reason)),
            ]))
        }))
        d.append(key: "warnings", value: .array(report.warnings.map { w in
            var entry = PropertyListDictionary([("kind", .string(w.kind.rawValue)), ("message", .string(w.message))])
            if let uid = w.uid { entry.append(key: "uid", value: .integer(PropertyListInteger(uid))) }
            if let path = w.path { entry.append(key: "path", value: .string(path)) }
            return .dictionary(entry)
        }))
        d.append(key: "suggestedAllow", value: .array(report.suggestedAdditions.map { .string($0) }))
        d.append(key: "swiftSnippet", value: .string(report.swiftSnippet))
        d.append(key: "classes", value: .dictionary(PropertyListDictionary(classCounts.map {
            (.string($0.name), .integer(PropertyListInteger($0.count)))
        })))
        return .dictionary(d)
    }

    /// The record for a file that could not be checked: `accepted` false, and why.
    public static func jsonValue(file: String, failure message: String) -> PropertyListValue {
        .dictionary(PropertyListDictionary([
            ("file", .string(file)), ("accepted", false), ("error", .string(message)),
        ]))
    }
}
