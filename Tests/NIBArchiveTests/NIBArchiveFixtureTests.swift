import BlobFixtures
import Foundation
import NIBArchive
import Testing

/// The compiled nibs in Fixtures/nib (from viraptor/ibtool's samples, compiled by Apple's
/// ibtool; see Fixtures/README.md), read and compared with the `nibarchive` package from PyPI.
struct NIBArchiveFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/nib")

    static var files: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "nib" }.sorted { $0.path < $1.path }
    }

    @Test func everyFixtureNibReadsWithItsRootAnNSObjectHoldingTheObjectData() throws {
        #expect(Self.files.count >= 6)
        for url in Self.files {
            let archive = try NIBArchive(data: Data(contentsOf: url))
            #expect(archive.header.formatVersion == 1 && archive.header.coderVersion == 10, "\(url.lastPathComponent)")
            #expect(archive.className(of: archive.objects[0]) == "NSObject")
            #expect(archive.fields(of: archive.objects[0]).contains { $0.key == "IB.objectdata" })
        }
    }

    @Test func theMinimalNibHasTheObjectsAndValuesIbtoolWrote() throws {
        let archive = try NIBArchive(data: Data(contentsOf: Self.folder.appendingPathComponent("minimal.nib")))
        #expect(archive.objects.count == 16 && archive.keys.count == 21 && archive.values.count == 35 && archive.classNames.count == 9)
        #expect(archive.className(of: archive.objects[4]) == "NSString")
        #expect(archive.fields(of: archive.objects[4]).map(\.key) == ["NS.bytes"])
        #expect(archive.fields(of: archive.objects[4]).first?.value == .data(Data("NSApplication".utf8)))
        let pairs = archive.fields(of: archive.objects[10])
        #expect(pairs.map(\.key) == ["NSInlinedValue", "UINibEncoderEmptyKey", "UINibEncoderEmptyKey"])
        #expect(pairs.map(\.value) == [.bool(false), .object(2), .object(8)])
        #expect(archive.fields(of: archive.objects[12]).first?.value == .int8(1))
        #expect(archive.classCounts.first { $0.name == "NSArray" }?.count == 5)
    }

    /// The peer's reading of each file: per object its class, and per value its key, type and
    /// data (bytes as hex, nested archives as a marker, floats as their text).
    static let peerScript = """
    import sys, json
    from nibarchive import NIBArchiveParser
    out = {}
    for f in sys.argv[1:]:
        a = NIBArchiveParser(verify=True).parse(open(f, 'rb'))
        objs = []
        for o in a.objects:
            vals = []
            for v in a.values[o.values_index:o.values_index + o.value_count]:
                d = v.data
                if v.type.name == 'NIBARCHIVE': d = 'nib'
                elif isinstance(d, bytes): d = d.hex()
                elif isinstance(d, list): d = 'geometry'
                elif isinstance(d, bool): d = 'true' if d else 'false'
                elif isinstance(d, float): d = repr(d)
                vals.append([a.keys[v.key_index].name, v.type.name, d])
            objs.append([a.class_names[o.class_name_index].name, vals])
        out[f] = objs
    print(json.dumps(out))
    """

    static func peerForm(_ content: NIBArchiveValue.Content) -> [Any] {
        switch content {
        case .int8(let v): ["INT8", Int(v)]
        case .int16(let v): ["INT16", Int(v)]
        case .int32(let v): ["INT32", Int(v)]
        case .int64(let v): ["INT64", Int(v)]
        case .bool(let b): [b ? "BOOL_TRUE" : "BOOL_FALSE", b ? "true" : "false"]
        case .float(let v): ["FLOAT", "\(Double(v))"]
        case .double(let v): ["DOUBLE", "\(v)"]
        case .data(let d):
            if NIBArchive.isNIBArchive(d), d.count > 10 { ["NIBARCHIVE", "nib"] }
            else if d.first == 7, d.count == 17 || d.count == 33 { ["DATA", "geometry"] }
            else { ["DATA", d.map { String(format: "%02x", $0) }.joined()] }
        case .null: ["NIL", NSNull()]
        case .object(let i): ["OBJECT_REF", i]
        }
    }

    /// The fixtures, and every `.nib` under `ARCHIVIST_EXTRA_NIBS` when that names a folder (to
    /// compare a larger set once, such as viraptor/ibtool's 191 samples).
    static var comparedFiles: [String] {
        var paths = files.map(\.path)
        if let extra = ProcessInfo.processInfo.environment["ARCHIVIST_EXTRA_NIBS"],
           let walker = FileManager.default.enumerator(atPath: extra) {
            for case let name as String in walker where name.hasSuffix(".nib") {
                let path = extra + "/" + name
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { paths.append(path) }
            }
        }
        return paths
    }

    @Test func everyFixtureNibAgreesWithThePythonNibarchivePackage() throws {
        let paths = Self.comparedFiles
        guard let peer = PythonPeer.json(module: "nibarchive", script: Self.peerScript, files: paths) as? [String: [[Any]]] else {
            print("skipped: python3 with the nibarchive package is not installed")
            return
        }
        var compared = 0
        for path in paths {
            let archive = try NIBArchive(data: Data(contentsOf: URL(fileURLWithPath: path)))
            let theirs = try #require(peer[path])
            #expect(theirs.count == archive.objects.count, "\(path)")
            for (object, their) in zip(archive.objects, theirs) {
                #expect(their[0] as? String == archive.className(of: object))
                let theirValues = their[1] as? [[Any]] ?? []
                let ours = archive.fields(of: object)
                #expect(theirValues.count == ours.count)
                for (value, theirValue) in zip(ours, theirValues) {
                    let form = Self.peerForm(value.value)
                    #expect(theirValue[0] as? String == value.key)
                    #expect(theirValue[1] as? String == form[0] as? String, "\(path) \(value.key)")
                    // Floats are compared as Python prints them; our `Double` text is the same
                    // shortest round-trip form.
                    #expect("\(theirValue[2])" == "\(form[1])", "\(path) \(value.key)")
                    compared += 1
                }
            }
        }
        #expect(compared > 1000)
        print("compared \(compared) values of \(paths.count) nibs with nibarchive")
    }
}
