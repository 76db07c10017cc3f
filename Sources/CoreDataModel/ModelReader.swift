import Foundation
import KeyedArchive
import PropertyList

/// Reads an app's Core Data model from wherever users have it: a store's `Z_MODELCACHE`
/// (`CoreDataStore` reads the bytes out of the store), a compiled `.mom` file or `.momd`
/// folder, or a source `.xcdatamodeld` / `.xcdatamodel` folder or its `contents` file.
public struct ModelReader: Sendable {
    public var options: ModelReadOptions

    public init(options: ModelReadOptions = .default) {
        self.options = options
    }

    /// The model in a store's `Z_MODELCACHE.Z_CONTENT`: raw DEFLATE of a keyed archive.
    ///
    /// - Throws: `ModelError` when the bytes do not inflate, are not an archive of
    ///   NSManagedObjectModel, or pass a limit.
    public func read(modelCache compressed: Data) throws(ModelError) -> ManagedObjectModel {
        guard compressed.count <= options.maximumInputBytes else {
            throw ModelError(.limitExceeded, "Z_MODELCACHE holds \(compressed.count) bytes, over the limit of \(options.maximumInputBytes) (the model input limit)")
        }
        let inflated: Data
        do {
            inflated = try RawDeflate.inflate(compressed, limit: options.maximumInflatedBytes)
        } catch {
            throw ModelError(error.code, "Z_MODELCACHE: \(error.message)", location: error.location)
        }
        return try read(archive: inflated)
    }

    /// The model in a keyed archive of NSManagedObjectModel: a compiled `.mom` file's bytes, or
    /// an inflated `Z_MODELCACHE`.
    public func read(archive data: Data) throws(ModelError) -> ManagedObjectModel {
        guard data.count <= options.maximumInflatedBytes else {
            throw ModelError(.limitExceeded, "\(data.count) bytes, over the limit of \(options.maximumInflatedBytes) (the inflated model limit)")
        }
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data, options: options.archive)
        } catch {
            throw ModelError(error.code == .limitExceeded ? .limitExceeded : .notAModel, "not a keyed archive of a model: \(error.description)")
        }
        return try ArchivedModelReader(archive: archive, options: options).read()
    }

    /// The model in an `.xcdatamodel` folder's `contents` XML.
    public func read(contents data: Data) throws(ModelError) -> ManagedObjectModel {
        try SourceModelReader(options: options).read(data)
    }

    /// The model at `path`: a `.mom` file, a `.momd` folder, an `.xcdatamodeld` folder, an
    /// `.xcdatamodel` folder or its `contents` file (any other file is tried as a `.mom`).
    ///
    /// - Parameters:
    ///   - path: the model file or folder.
    ///   - storeHashes: a store's `NSStoreModelVersionHashes`. In a `.momd`, the version whose
    ///     hashes equal them is read; without them, the current version.
    /// - Throws: `ModelError` naming the file.
    public func read(path: String, storeHashes: [String: Data]? = nil) throws(ModelError) -> LoadedModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelError(.cannotRead, "no such file or folder", source: path)
        }
        let url = URL(fileURLWithPath: path)
        do throws(ModelError) {
            if isDirectory.boolValue {
                switch url.pathExtension.lowercased() {
                case "momd": return try readCompiledBundle(url, storeHashes: storeHashes)
                case "xcdatamodeld": return try readSourceBundle(url)
                case "xcdatamodel": return try readSourceVersion(url, version: nil)
                default:
                    throw ModelError(.notAModel, "a folder that is not a .momd, .xcdatamodeld or .xcdatamodel")
                }
            }
            let data = try Self.contents(of: url, limit: options.maximumInputBytes)
            if url.lastPathComponent == "contents" || data.prefix(64).starts(with: Array("<?xml".utf8)) {
                return LoadedModel(model: try read(contents: data), source: .sourceModel(path: path, version: nil))
            }
            return LoadedModel(model: try read(archive: data), source: .compiledModel(path: path, version: nil))
        } catch {
            throw error.from(path)
        }
    }

    // MARK: Folders

    /// A `.momd`: `VersionInfo.plist` lists each version's entity hashes and the current one.
    func readCompiledBundle(_ url: URL, storeHashes: [String: Data]?) throws(ModelError) -> LoadedModel {
        let infoURL = url.appendingPathComponent("VersionInfo.plist")
        var versions: [String: [String: Data]] = [:]
        var current: String?
        if FileManager.default.fileExists(atPath: infoURL.path) {
            let data = try Self.contents(of: infoURL, limit: options.maximumInputBytes)
            let plist: PropertyListValue
            do {
                plist = try PropertyListReader(options: options.archive.propertyList).read(data).value
            } catch {
                throw ModelError(.malformed, "VersionInfo.plist is not a property list: \(error.description)", source: infoURL.path)
            }
            current = plist.dictionaryValue?["NSManagedObjectModel_CurrentVersionName"]?.stringValue
            let table = plist.dictionaryValue?["NSManagedObjectModel_VersionHashes"]?.dictionaryValue ?? PropertyListDictionary()
            guard table.count <= options.maximumVersions else {
                throw ModelError(.limitExceeded, "\(table.count) versions, over the limit of \(options.maximumVersions) (the model version limit)", source: infoURL.path)
            }
            for (key, value) in table {
                guard let name = key.stringValue else { continue }
                var hashes: [String: Data] = [:]
                for (entity, hash) in value.dictionaryValue ?? PropertyListDictionary() {
                    if let entity = entity.stringValue, let hash = hash.dataValue { hashes[entity] = hash }
                }
                versions[name] = hashes
            }
        }
        let moms = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { $0.hasSuffix(".mom") }.map { String($0.dropLast(4)) }.sorted()
        guard !moms.isEmpty else { throw ModelError(.notAModel, "a .momd folder with no .mom file in it", source: url.path) }
        var chosen: String
        var match: VersionMatch
        if let storeHashes, !storeHashes.isEmpty {
            let matching = versions.filter { $0.value == storeHashes }.map(\.key).sorted()
            guard let found = matching.first(where: moms.contains) else {
                let listed = versions.keys.sorted().joined(separator: ", ")
                throw ModelError(.noMatchingVersion, "no version's entity hashes equal the store's NSStoreModelVersionHashes (versions: \(listed.isEmpty ? "none listed" : listed))",
                                 source: infoURL.path)
            }
            chosen = found
            match = .matchesStore
        } else if let current, moms.contains(current) {
            chosen = current
            match = .current
        } else {
            chosen = moms.last ?? moms[0]
            match = .onlyOrLast
        }
        let momURL = url.appendingPathComponent(chosen + ".mom")
        let data = try Self.contents(of: momURL, limit: options.maximumInputBytes)
        do {
            let model = try read(archive: data)
            return LoadedModel(model: model, source: .compiledModel(path: url.path, version: chosen), versionMatch: match,
                               versions: moms)
        } catch {
            throw error.from(momURL.path)
        }
    }

    /// An `.xcdatamodeld`: `.xccurrentversion` names the current `.xcdatamodel`.
    func readSourceBundle(_ url: URL) throws(ModelError) -> LoadedModel {
        let models = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted { $0.dropLast(".xcdatamodel".count) < $1.dropLast(".xcdatamodel".count) }
        guard models.count <= options.maximumVersions else {
            throw ModelError(.limitExceeded, "\(models.count) versions, over the limit of \(options.maximumVersions) (the model version limit)", source: url.path)
        }
        guard !models.isEmpty else { throw ModelError(.notAModel, "an .xcdatamodeld folder with no .xcdatamodel in it", source: url.path) }
        var chosen = models.count == 1 ? models[0] : nil
        var match = VersionMatch.onlyOrLast
        let currentURL = url.appendingPathComponent(".xccurrentversion")
        if FileManager.default.fileExists(atPath: currentURL.path) {
            let data = try Self.contents(of: currentURL, limit: 1 << 20)
            let plist: PropertyListValue
            do {
                plist = try PropertyListReader().read(data).value
            } catch {
                throw ModelError(.malformed, ".xccurrentversion is not a property list: \(error.description)", source: currentURL.path)
            }
            if let name = plist.dictionaryValue?["_XCCurrentVersionName"]?.stringValue {
                guard models.contains(name) else {
                    throw ModelError(.malformed, "names \(name) as the current version, which is not in the folder", source: currentURL.path)
                }
                chosen = name
                match = .current
            }
        }
        let name = chosen ?? models[models.count - 1]
        var loaded = try readSourceVersion(url.appendingPathComponent(name), version: String(name.dropLast(".xcdatamodel".count)))
        loaded.source = .sourceModel(path: url.path, version: String(name.dropLast(".xcdatamodel".count)))
        loaded.versionMatch = match
        loaded.versions = models.map { String($0.dropLast(".xcdatamodel".count)) }
        return loaded
    }

    func readSourceVersion(_ url: URL, version: String?) throws(ModelError) -> LoadedModel {
        let contentsURL = url.appendingPathComponent("contents")
        let data = try Self.contents(of: contentsURL, limit: options.maximumInputBytes)
        do {
            return LoadedModel(model: try read(contents: data), source: .sourceModel(path: url.path, version: version))
        } catch {
            throw error.from(contentsURL.path)
        }
    }

    /// A file's bytes, refusing files over `limit` before reading them.
    static func contents(of url: URL, limit: Int) throws(ModelError) -> Data {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let size = (attributes?[.size] as? NSNumber)?.intValue else {
            throw ModelError(.cannotRead, "no such file", source: url.path)
        }
        guard size <= limit else {
            throw ModelError(.limitExceeded, "\(size) bytes, over the limit of \(limit) (the model input limit)", source: url.path)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ModelError(.cannotRead, "cannot read the file", source: url.path)
        }
        return data
    }
}
