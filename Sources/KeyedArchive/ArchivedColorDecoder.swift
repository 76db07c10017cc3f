import Foundation
import PropertyList

/// Reads UIColor and NSColor in the layouts Apple writes.
///
/// UIColor (iOS) writes `UIRed`/`UIGreen`/`UIBlue`/`UIAlpha` as float32 (sometimes with
/// `-Double` twins), or `UIWhite`, plus `UIColorComponentCount`, and for macOS readers `NSRGB` or
/// `NSWhite` as ASCII text in data and `NSColorSpace`. NSColor (macOS) writes `NSColorSpace` with
/// `NSRGB`, `NSWhite`, `NSCMYK` or `NSComponents`, or a catalog name.
struct ArchivedColorDecoder {
    let content: ArchivedContentDecoder
    /// Where the first field with each key of `keys` is in the object's fields (-1: none),
    /// found in one pass: a million colors are a million of these lookups.
    let first: [Int]

    /// The keys the decoder reads, by their index in `first`.
    static let keys = ["UIRed-Double", "UIRed", "UIGreen-Double", "UIGreen", "UIBlue-Double", "UIBlue",
                       "UIAlpha-Double", "UIAlpha", "UIWhite-Double", "UIWhite", "NSColorSpace", "NSRGB",
                       "NSWhite", "NSCMYK", "NSComponents", "NSColorName", "NSCatalogName"]
    /// The indexes in `keys` of the keys of each length in UTF-8 bytes.
    static let keysByLength: [[Int]] = {
        var table = [[Int]](repeating: [], count: (keys.map(\.utf8.count).max() ?? 0) + 1)
        for (k, key) in keys.enumerated() { table[key.utf8.count].append(k) }
        return table
    }()
    enum Key: Int {
        case red, green = 2, blue = 4, alpha = 6, white = 8
        case colorSpace = 10, rgb, whiteText, cmyk, components, colorName, catalogName
    }

    init(content: ArchivedContentDecoder) {
        self.content = content
        var first = [Int](repeating: -1, count: Self.keys.count)
        content.object.fields.withUnsafeBufferPointer { fields in
            for i in fields.indices {
                let key = fields[i].key
                // Told apart by length first: most keys of an object are none of these.
                let length = key.utf8.count
                guard length < Self.keysByLength.count else { continue }
                for k in Self.keysByLength[length] where first[k] < 0 && Self.keys[k] == key { first[k] = i }
            }
        }
        self.first = first
    }

    /// The first field with `key`, as `ArchivedObject[field:]` finds it.
    func value(_ key: Key, offset: Int = 0) -> ArchivedValue? {
        let i = first[key.rawValue + offset]
        return i >= 0 ? content.object.fields[i].value : nil
    }

    /// `ArchivedContentDecoder.double` of the field.
    func double(_ key: Key, offset: Int = 0) -> Double? {
        switch value(key, offset: offset).flatMap(content.scalar) {
        case .real(let r)?: return r
        case .integer(let i)?: return i.int64Value.map(Double.init)
        default: return nil
        }
    }

    /// `UIRed-Double`, else `UIRed` (and so on for the other components).
    func component(_ key: Key) -> Double? {
        double(key) ?? double(key, offset: 1)
    }

    /// Space-separated numbers in ASCII data, as `NSRGB` holds them; a trailing NUL is allowed.
    func numbers(_ key: Key) -> [Double]? {
        guard let data = value(key).flatMap(content.dataValue) else { return nil }
        let text = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        let values = parts.compactMap { Double($0) }
        return values.count == parts.count && !values.isEmpty ? values : nil
    }

    /// `ArchivedContentDecoder.int` of the field.
    func int(_ key: Key) -> Int? {
        switch value(key).flatMap(content.scalar) {
        case .integer(let i)?: return i.int64Value.map(Int.init)
        case .real(let r)? where r == r.rounded() && abs(r) < 1e18: return Int(r)
        case .bool(let b)?: return b ? 1 : 0
        default: return nil
        }
    }

    func decode() -> ArchivedColor? {
        let colorSpace = int(.colorSpace)
        if let r = component(.red), let g = component(.green), let b = component(.blue) {
            return ArchivedColor(red: r, green: g, blue: b, alpha: component(.alpha) ?? 1, space: uiSpace(colorSpace))
        }
        if let w = component(.white) {
            return ArchivedColor(red: w, green: w, blue: w, alpha: component(.alpha) ?? 1, space: .genericGray, white: w)
        }
        if let rgb = numbers(.rgb), rgb.count >= 3 {
            let space: ArchivedColor.Space = colorSpace == 1 ? .calibratedRGB : colorSpace == 2 ? .deviceRGB : .sRGB
            return ArchivedColor(red: rgb[0], green: rgb[1], blue: rgb[2], alpha: rgb.count > 3 ? rgb[3] : 1, space: space)
        }
        if let white = numbers(.whiteText), let w = white.first {
            let space: ArchivedColor.Space = colorSpace == 3 ? .calibratedWhite : colorSpace == 4 ? .deviceWhite : .genericGray
            return ArchivedColor(red: w, green: w, blue: w, alpha: white.count > 1 ? white[1] : 1, space: space, white: w)
        }
        if let cmyk = numbers(.cmyk), cmyk.count >= 4 {
            // Shown as RGB by the naive conversion; the CMYK values stay in the fields.
            let (c, m, y, k) = (cmyk[0], cmyk[1], cmyk[2], cmyk[3])
            return ArchivedColor(red: (1 - c) * (1 - k), green: (1 - m) * (1 - k), blue: (1 - y) * (1 - k),
                                 alpha: cmyk.count > 4 ? cmyk[4] : 1, space: .cmyk)
        }
        if let components = numbers(.components), components.count >= 3 {
            return ArchivedColor(red: components[0], green: components[1], blue: components[2],
                                 alpha: components.count > 3 ? components[3] : 1, space: .unknown)
        }
        if let name = value(.colorName).flatMap({ ArchivedContentDecoder.string($0, raw: content.raw) }) {
            let catalog = value(.catalogName).flatMap { ArchivedContentDecoder.string($0, raw: content.raw) } ?? ""
            return ArchivedColor(red: 0, green: 0, blue: 0, alpha: 1, space: .named, name: catalog.isEmpty ? name : "\(catalog)/\(name)")
        }
        return nil
    }

    func uiSpace(_ colorSpace: Int?) -> ArchivedColor.Space {
        // A UIColor's components are extended sRGB; a Display P3 color says so in its name hint.
        guard let name = content.object.archivedClass?.name, Self.mayContainDisplayP3(name) else { return .sRGB }
        return name.contains("DisplayP3") ? .displayP3 : .sRGB
    }

    /// Whether the name's bytes hold `DisplayP3`: without them, Foundation's search (which the
    /// answer is left to) cannot find it, and most names are told apart here without it.
    static func mayContainDisplayP3(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { utf8 in
            let needle: StaticString = "DisplayP3"
            let n = needle.utf8CodeUnitCount
            guard utf8.count >= n else { return false }
            let p = needle.utf8Start
            for start in 0...(utf8.count - n) where utf8[start] == p[0] {
                var i = 1
                while i < n, utf8[start + i] == p[i] { i += 1 }
                if i == n { return true }
            }
            return false
        }
    }
}
