import Foundation
import FixtureSupport
import KeyedArchive
import PostgresTable
import PropertyList

/// The table the PostgreSQL tests scan and migrate: what a backend's `bytea` column of app
/// payloads holds, mixed row by row.
///
/// Rows are keyed 1…N (`id bigint PRIMARY KEY`, the blob in `payload bytea`). By `id % 100`:
///
/// | slots | value | made by |
/// |---|---|---|
/// | 0–54 | a UIColor archive, one of 4,096 colors | `KeyedArchiveBuilder.uiColor`, as iOS archives it |
/// | 55–69 | an NSArray of NSString archive, one of 97 lists | `KeyedArchiveBuilder`, in Foundation's layout |
/// | 70–74 | the seed patterns of USERS.md, in turn: Eventail.SerializableColor (mangled), MyApp.UserDetails, MyApp.ConfigurationBox, an NSURL relative to an App Group folder, a legacy `[String]` | the files of `Fixtures/archives` |
/// | 75–81 | JSON already migrated (`{"red":…}`) | written here |
/// | 82–89 | NULL | |
/// | 90–94 | PNG bytes | `Fixtures/archives/photo.png` |
/// | 95–97 | a plain binary plist (PropertyListEncoder) | `Fixtures/archives/user-details-codable.bplist` |
/// | 98 | a damaged archive: a UIColor archive cut in half | |
/// | 99 | an archive whose object refers to itself (a cycle) | `Fixtures/archives/cycle-self-reference.bplist` |
public struct MixedBlobTable: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case uiColor, stringArray, seed, json, null, png, plainPlist, damaged, cycle

        /// Whether `migrate` converts it (with `allowedClasses`).
        public var isConvertible: Bool { self == .uiColor || self == .stringArray || self == .seed }
    }

    public var rowCount: Int
    /// Every row a UIColor archive (the benchmark's table), instead of the mix.
    public var colorsOnly: Bool

    /// With `colorsOnly`: every row a color of its own, instead of one of 4,096 (the
    /// benchmark's worst case for `RepeatedValueMemo`, where no value repeats).
    public var distinctColors: Bool

    public init(rowCount: Int, colorsOnly: Bool = false, distinctColors: Bool = false) {
        self.rowCount = rowCount
        self.colorsOnly = colorsOnly
        self.distinctColors = distinctColors
    }

    /// Every class in the table beyond the transformer's defaults: `--allow` them all and every
    /// archive but the damaged one and the cycle converts.
    public static let allowedClasses = ["UIColor", "Eventail.SerializableColor", "MyApp.UserDetails", "MyApp.ConfigurationBox", "MyApp.Node"]

    public static func kind(of id: Int) -> Kind {
        switch id % 100 {
        case 0..<55: .uiColor
        case 55..<70: .stringArray
        case 70..<75: .seed
        case 75..<82: .json
        case 82..<90: .null
        case 90..<95: .png
        case 95..<98: .plainPlist
        case 98: .damaged
        default: .cycle
        }
    }

    /// How many rows of each kind.
    public var counts: [Kind: Int] {
        var counts: [Kind: Int] = [:]
        for id in 1...max(1, rowCount) where rowCount > 0 { counts[Self.kind(of: id), default: 0] += 1 }
        return counts
    }

    /// A color's components, as the migrated JSON spells them.
    public typealias Color = MigratedColor

    /// The color of a UIColor row: float32 components, as UIColor keeps them.
    public static func color(of id: Int) -> Color {
        let index = (id &* 2_654_435_761) & 0xFFF
        func channel(_ shift: Int) -> Double { Double(Float(Double((index >> shift) & 0xF) / 15)) }
        return Color(red: channel(0), green: channel(4), blue: channel(8), alpha: index % 7 == 0 ? Double(Float(0.5)) : 1)
    }

    /// A color no other row below 2^24 has: one 8-bit step per channel.
    public static func distinctColor(of id: Int) -> Color {
        func channel(_ shift: Int) -> Double { Double(Float(Double((id >> shift) & 0xFF) / 255)) }
        return Color(red: channel(0), green: channel(8), blue: channel(16), alpha: 1)
    }

    /// The strings of a string-array row.
    public static func strings(of id: Int) -> [String] {
        let n = id % 97
        return (0..<(1 + n % 5)).map { "tag \(n)-\($0)" } + (n % 3 == 0 ? ["café ☕︎ \(n)"] : [])
    }

    /// The seed file of a seed row.
    public static func seedFile(of id: Int) -> String {
        ["serializable-color-mangled.bplist", "user-details-nscoding.bplist", "configuration-box-json.bplist",
         "relative-url.bplist", "legacy-string-array.bplist"][id % 5]
    }

    /// `Fixtures/archives`, found from this file's place in the repository.
    public static let archivesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/archives")

    /// Builds values once per distinct content.
    public final class Values: @unchecked Sendable {
        var colors: [Color: Data] = [:]
        var arrays: [Int: Data] = [:]
        var files: [String: Data] = [:]
        let lock = NSLock()

        public init() {}

        func file(_ name: String) throws -> Data {
            if let known = files[name] { return known }
            let data = try Data(contentsOf: MixedBlobTable.archivesFolder.appendingPathComponent(name))
            files[name] = data
            return data
        }

        /// The value of row `id`.
        public func value(of id: Int) throws -> Data? {
            lock.lock()
            defer { lock.unlock() }
            switch MixedBlobTable.kind(of: id) {
            case .uiColor: return try colorArchive(MixedBlobTable.color(of: id))
            case .stringArray:
                let n = id % 97
                if let known = arrays[n] { return known }
                var builder = KeyedArchiveBuilder()
                let items = MixedBlobTable.strings(of: id).map { builder.string($0) }
                let root = builder.array(items)
                let data = try KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)
                arrays[n] = data
                return data
            case .seed: return try file(MixedBlobTable.seedFile(of: id))
            case .json:
                let c = MixedBlobTable.color(of: id)
                return Data(#"{"red":\#(c.red),"green":\#(c.green),"blue":\#(c.blue),"alpha":\#(c.alpha)}"#.utf8)
            case .null: return nil
            case .png: return try file("photo.png")
            case .plainPlist: return try file("user-details-codable.bplist")
            case .damaged:
                let whole = try colorArchive(MixedBlobTable.color(of: id))
                return whole.prefix(whole.count / 2)
            case .cycle: return try file("cycle-self-reference.bplist")
            }
        }

        /// A UIColor archive of `color`, remembered unless `remembering` is false.
        public func colorArchive(_ color: Color, remembering: Bool = true) throws -> Data {
            if let known = colors[color] { return known }
            guard remembering else {
                var builder = KeyedArchiveBuilder()
                let root = builder.uiColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
                return try KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)
            }
            var builder = KeyedArchiveBuilder()
            let root = builder.uiColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
            let data = try KeyedArchiveWriter().write(builder.archive(root: root), format: .binary)
            colors[color] = data
            return data
        }
    }

    /// Creates `table` (`[schema.]name`: `id bigint PRIMARY KEY, payload bytea`) and fills it,
    /// 10,000 rows a statement; then `ANALYZE`, so the row estimate is right.
    package func create(_ table: String, on connection: PostgresConnection, values: Values = Values(),
                        progress: ((Int) -> Void)? = nil) throws {
        try connection.execute("CREATE TABLE \(table) (id bigint PRIMARY KEY, payload bytea)")
        var id = 1
        while id <= rowCount {
            let end = min(rowCount, id + 9_999)
            let ids = (id...end).map { withUnsafeBytes(of: Int64($0).bigEndian) { Data($0) } }
            let blobs = try (id...end).map { id -> Data? in
                guard colorsOnly else { return try values.value(of: id) }
                return distinctColors ? try values.colorArchive(Self.distinctColor(of: id), remembering: false) : try values.colorArchive(Self.color(of: id))
            }
            _ = try connection.query("INSERT INTO \(table) (id, payload) SELECT * FROM unnest($1::int8[], $2::bytea[])",
                                     [.array(ids, elementType: PostgresType.int8), .array(blobs, elementType: PostgresType.bytea)])
            id = end + 1
            progress?(end)
        }
        try connection.execute("ANALYZE \(table)")
    }
}
