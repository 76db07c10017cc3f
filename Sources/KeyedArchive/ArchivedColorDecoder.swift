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

    func component(_ name: String) -> Double? {
        content.double("UI\(name)-Double") ?? content.double("UI\(name)")
    }

    /// Space-separated numbers in ASCII data, as `NSRGB` holds them; a trailing NUL is allowed.
    func numbers(_ key: String) -> [Double]? {
        guard let data = content.data(key) else { return nil }
        let text = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        let values = parts.compactMap { Double($0) }
        return values.count == parts.count && !values.isEmpty ? values : nil
    }

    func decode() -> ArchivedColor? {
        let colorSpace = content.int("NSColorSpace")
        if let r = component("Red"), let g = component("Green"), let b = component("Blue") {
            return ArchivedColor(red: r, green: g, blue: b, alpha: component("Alpha") ?? 1, space: uiSpace(colorSpace))
        }
        if let w = component("White") {
            return ArchivedColor(red: w, green: w, blue: w, alpha: component("Alpha") ?? 1, space: .genericGray, white: w)
        }
        if let rgb = numbers("NSRGB"), rgb.count >= 3 {
            let space: ArchivedColor.Space = colorSpace == 1 ? .calibratedRGB : colorSpace == 2 ? .deviceRGB : .sRGB
            return ArchivedColor(red: rgb[0], green: rgb[1], blue: rgb[2], alpha: rgb.count > 3 ? rgb[3] : 1, space: space)
        }
        if let white = numbers("NSWhite"), let w = white.first {
            let space: ArchivedColor.Space = colorSpace == 3 ? .calibratedWhite : colorSpace == 4 ? .deviceWhite : .genericGray
            return ArchivedColor(red: w, green: w, blue: w, alpha: white.count > 1 ? white[1] : 1, space: space, white: w)
        }
        if let cmyk = numbers("NSCMYK"), cmyk.count >= 4 {
            // Shown as RGB by the naive conversion; the CMYK values stay in the fields.
            let (c, m, y, k) = (cmyk[0], cmyk[1], cmyk[2], cmyk[3])
            return ArchivedColor(red: (1 - c) * (1 - k), green: (1 - m) * (1 - k), blue: (1 - y) * (1 - k),
                                 alpha: cmyk.count > 4 ? cmyk[4] : 1, space: .cmyk)
        }
        if let components = numbers("NSComponents"), components.count >= 3 {
            return ArchivedColor(red: components[0], green: components[1], blue: components[2],
                                 alpha: components.count > 3 ? components[3] : 1, space: .unknown)
        }
        if let name = content.string(at: "NSColorName") {
            let catalog = content.string(at: "NSCatalogName") ?? ""
            return ArchivedColor(red: 0, green: 0, blue: 0, alpha: 1, space: .named, name: catalog.isEmpty ? name : "\(catalog)/\(name)")
        }
        return nil
    }

    func uiSpace(_ colorSpace: Int?) -> ArchivedColor.Space {
        // A UIColor's components are extended sRGB; a Display P3 color says so in its name hint.
        if content.object.archivedClass?.name.contains("DisplayP3") == true { return .displayP3 }
        return .sRGB
    }
}
