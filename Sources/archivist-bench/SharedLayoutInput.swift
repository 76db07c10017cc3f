import Foundation
import PlistLayoutFixtures
import PropertyList

/// The process benchmark's archive (`RecordArchiveInput`) in the layouts of writers that share
/// identical collections: the same objects, with every record's `NS.keys` array stored once
/// and referenced from all of them.
enum SharedLayoutInput {
    /// The archive's property list written by `SharedLayoutWriter`: every equal collection
    /// (here, the records' `NS.keys`) stored once, children before their parents.
    static func shared(_ apple: Data) -> Data? {
        guard let plist = try? PropertyListReader().read(apple).value else { return nil }
        return SharedLayoutWriter().write(plist)
    }

    /// What CPython's plistlib writes when the archive it loaded gets one `NS.keys` list per
    /// distinct set of keys (as a script that builds its records from one list does): plistlib
    /// writes a container referenced twice once. Nil without `python3`, or when it fails.
    static func plistlib(_ applePath: String, to path: String, python: String) -> Bool {
        let script = """
        import plistlib, sys
        with open(sys.argv[1], 'rb') as f:
            archive = plistlib.load(f)
        lists = {}
        for o in archive['$objects']:
            if isinstance(o, dict) and isinstance(o.get('NS.keys'), list):
                key = tuple(u.data for u in o['NS.keys'])
                o['NS.keys'] = lists.setdefault(key, o['NS.keys'])
        with open(sys.argv[2], 'wb') as f:
            plistlib.dump(archive, f, fmt=plistlib.FMT_BINARY)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, applePath, path]
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0 && FileManager.default.fileExists(atPath: path)
    }
}
