import Foundation
import PropertyList

/// What an archived object means, for the classes of Foundation, UIKit and AppKit that
/// Archivist understands. Any other class is `.object`, its fields kept in `ArchivedObject.fields`.
public enum ArchivedContent: Sendable, Hashable {
    /// NSString and NSMutableString (inline, `NS.string` or `NS.bytes`).
    case string(String)
    /// NSNumber: an integer, real or bool.
    case number(PropertyListValue)
    /// NSDecimalNumber, as its exact decimal text (`-12.345`), or `NaN`.
    case decimalNumber(String)
    /// NSData and NSMutableData (inline or `NS.data`).
    case data(Data)
    /// NSDate (`NS.time`).
    case date(Date)
    /// NSNull.
    case null
    /// NSArray and NSMutableArray (`NS.objects`).
    case array([ArchivedValue])
    /// NSSet and NSMutableSet.
    case set([ArchivedValue])
    /// NSOrderedSet and NSMutableOrderedSet.
    case orderedSet([ArchivedValue])
    /// NSCountedSet: each distinct object with its count.
    case countedSet([ArchivedValue], counts: [Int])
    /// NSDictionary and NSMutableDictionary (`NS.keys`, `NS.objects`), keys of any type.
    case dictionary(keys: [ArchivedValue], values: [ArchivedValue])
    /// NSURL: a relative string and an optional base URL.
    indirect case url(base: ArchivedValue, relative: ArchivedValue)
    /// NSUUID (`NS.uuidbytes`).
    case uuid(UUID)
    /// NSAttributedString and NSMutableAttributedString: the string and its attribute runs.
    indirect case attributedString(string: ArchivedValue, attributes: [ArchivedValue], ranges: [Range<Int>])
    /// NSValue holding geometry (`NS.special`).
    indirect case geometry(ArchivedGeometry)
    /// NSIndexSet and NSMutableIndexSet, as ranges of indexes.
    case indexSet([Range<Int>])
    /// NSLocale (`NS.identifier`).
    case locale(identifier: String)
    /// NSTimeZone (`NS.name`).
    case timeZone(name: String)
    /// NSError: domain, code and user info.
    indirect case error(domain: String, code: Int, userInfo: ArchivedValue)
    /// UIColor or NSColor, in any layout Apple writes.
    indirect case color(ArchivedColor)
    /// `_NSKeyedCoderOldStyleArray`: a C array encoded element by element.
    case oldStyleArray([ArchivedValue])
    /// Any other class: see the object's fields.
    case object

    /// The class an inline plist object stands for.
    var inlineClassName: String {
        switch self {
        case .string: "NSString"
        case .number: "NSNumber"
        case .data: "NSData"
        case .date: "NSDate"
        default: "NSObject"
        }
    }
}

/// The geometry an NSValue can hold, with CoreGraphics' and Foundation's field names.
public enum ArchivedGeometry: Sendable, Hashable {
    case point(x: Double, y: Double)
    case size(width: Double, height: Double)
    case rect(x: Double, y: Double, width: Double, height: Double)
    case range(location: Int, length: Int)
    case edgeInsets(top: Double, left: Double, bottom: Double, right: Double)
}

/// A color's components, as UIColor and NSColor archive them.
public struct ArchivedColor: Sendable, Hashable {
    public enum Space: String, Sendable, Hashable {
        case sRGB, displayP3, deviceRGB, calibratedRGB, genericGray, deviceWhite, calibratedWhite, cmyk, named, pattern, unknown
    }

    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double
    public var space: Space
    /// For white-based colors, the white component (red, green and blue repeat it).
    public var white: Double?
    /// For a named catalog color (NSColor), the catalog and color names.
    public var name: String?

    public init(red: Double, green: Double, blue: Double, alpha: Double, space: Space = .sRGB, white: Double? = nil, name: String? = nil) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.space = space
        self.white = white
        self.name = name
    }
}
