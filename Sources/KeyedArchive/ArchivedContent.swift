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
