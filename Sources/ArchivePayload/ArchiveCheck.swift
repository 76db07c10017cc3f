import Foundation
import KeyedArchive
import PropertyList

/// What `archivist check` says about one archive: the allow-list's report, with the objects and
/// classes the archive holds. Its text and JSON forms are `text(file:argument:usesColors:)` and
/// `jsonValue(file:)`.
public struct ArchiveCheck: Sendable {
    public var report: AllowListReport
    /// The objects decoded (a typedstream's own objects, not those its keyed form adds).
    public var objectCount: Int
    /// Each class with the number of its objects, most first.
    public var classCounts: [(name: String, count: Int)]
    /// The archive, when it had to be decoded (some object was refused, or the class index did
    /// not read it); nil when its classes alone were enough.
    public var archive: KeyedArchive?
    /// The archive's classes, when they alone were enough.
    public var classIndex: KeyedArchiveClassIndex?

    public init(report: AllowListReport, objectCount: Int, classCounts: [(name: String, count: Int)],
                archive: KeyedArchive? = nil, classIndex: KeyedArchiveClassIndex? = nil) {
        self.report = report
        self.objectCount = objectCount
        self.classCounts = classCounts
        self.archive = archive
        self.classIndex = classIndex
    }
}

extension AllowListChecker {
    /// Checks an archive's bytes: from its classes alone when every object passes
    /// (`KeyedArchiveClassIndex`, which builds no object), else from the decoded archive, whose
    /// report names each refused object's path.
    ///
    /// - Throws: `KeyedArchiveError` when the bytes are no archive this reads.
    public func check(data: Data, options: KeyedArchiveReadOptions = .default) throws(KeyedArchiveError) -> ArchiveCheck {
        if let index = KeyedArchiveClassIndex(data: data, options: options), let report = acceptedReport(index) {
            return ArchiveCheck(report: report, objectCount: index.objectCount, classCounts: index.classCounts, classIndex: index)
        }
        let archive = try KeyedArchive(data: data, options: options)
        // A typedstream's own objects and classes, not those its keyed form adds.
        let objectCount = archive.typedStream?.objects.count ?? archive.decodedObjects.count
        return ArchiveCheck(report: check(archive), objectCount: objectCount, classCounts: archive.sourceClassCounts, archive: archive)
    }
}
