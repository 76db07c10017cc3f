/// The real superclass of each Foundation, UIKit and AppKit class that archives name, as the
/// runtime knows them.
///
/// `NSSecureUnarchiveFromDataTransformer` accepts an object whose class is an allowed class or a
/// subclass of one, judged by the runtime's hierarchy. An archive's own `$classes` chain is
/// written by whoever made the blob, so it proves nothing; this table is what the check uses
/// unless the caller opts into trusting the archive.
public struct ClassHierarchy: Sendable {
    var superclasses: [String: String]

    /// A hierarchy from class → superclass pairs (root classes map to nothing).
    public init(superclasses: [String: String]) {
        self.superclasses = superclasses
    }

    /// Foundation's, UIKit's and AppKit's archivable classes.
    public static let apple = ClassHierarchy(superclasses: [
        // Foundation value classes
        "NSString": "NSObject", "NSMutableString": "NSString", "NSSimpleCString": "NSString", "NSConstantString": "NSSimpleCString",
        "NSAttributedString": "NSObject", "NSMutableAttributedString": "NSAttributedString",
        "NSNumber": "NSValue", "NSValue": "NSObject", "NSDecimalNumber": "NSNumber",
        "NSData": "NSObject", "NSMutableData": "NSData",
        "NSDate": "NSObject", "NSCalendarDate": "NSDate",
        "NSArray": "NSObject", "NSMutableArray": "NSArray",
        "NSDictionary": "NSObject", "NSMutableDictionary": "NSDictionary",
        "NSSet": "NSObject", "NSMutableSet": "NSSet", "NSCountedSet": "NSMutableSet",
        "NSOrderedSet": "NSObject", "NSMutableOrderedSet": "NSOrderedSet",
        "NSNull": "NSObject", "NSURL": "NSObject", "NSUUID": "NSObject",
        "NSIndexSet": "NSObject", "NSMutableIndexSet": "NSIndexSet", "NSIndexPath": "NSObject",
        "NSLocale": "NSObject", "NSTimeZone": "NSObject", "NSCalendar": "NSObject",
        "NSError": "NSObject", "NSException": "NSObject",
        "NSDateComponents": "NSObject", "NSDateInterval": "NSObject", "NSPersonNameComponents": "NSObject",
        "NSMeasurement": "NSObject", "NSUnit": "NSObject", "NSDimension": "NSUnit",
        "NSUnitLength": "NSDimension", "NSUnitMass": "NSDimension", "NSUnitAngle": "NSDimension",
        "NSUnitFrequency": "NSDimension", "NSUnitTemperature": "NSDimension", "NSUnitDuration": "NSDimension",
        "NSUnitConverter": "NSObject", "NSUnitConverterLinear": "NSUnitConverter",
        "NSRegularExpression": "NSObject", "NSTextCheckingResult": "NSObject",
        "NSFormatter": "NSObject", "NSDateFormatter": "NSFormatter", "NSNumberFormatter": "NSFormatter",
        "NSISO8601DateFormatter": "NSFormatter", "NSDateIntervalFormatter": "NSFormatter",
        "NSByteCountFormatter": "NSFormatter", "NSPredicate": "NSObject", "NSSortDescriptor": "NSObject",
        "NSNotification": "NSObject", "NSURLComponents": "NSObject", "NSURLRequest": "NSObject",
        "NSMutableURLRequest": "NSURLRequest", "NSHTTPURLResponse": "NSURLResponse", "NSURLResponse": "NSObject",
        "NSItemProvider": "NSObject", "NSProgress": "NSObject",
        // UIKit
        "UIColor": "NSObject", "UIFont": "NSObject", "UIImage": "NSObject", "UIFontDescriptor": "NSObject",
        "UIBezierPath": "NSObject", "UIDeviceRGBColor": "UIColor", "UIDeviceWhiteColor": "UIColor",
        "UICachedDeviceRGBColor": "UIDeviceRGBColor", "UICachedDeviceWhiteColor": "UIDeviceWhiteColor",
        "UIDynamicSystemColor": "UIColor", "UIDynamicCatalogColor": "UIColor", "UIDisplayP3Color": "UIColor",
        "UIView": "UIResponder", "UIResponder": "NSObject",
        // AppKit
        "NSColor": "NSObject", "NSFont": "NSObject", "NSImage": "NSObject", "NSColorSpace": "NSObject",
        "NSParagraphStyle": "NSObject", "NSMutableParagraphStyle": "NSParagraphStyle", "NSTextTab": "NSObject",
        "NSShadow": "NSObject", "NSBezierPath": "NSObject", "NSGradient": "NSObject", "NSCursor": "NSObject",
        // Private classes that appear in archives in place of their public superclass
        "_NSKeyedCoderOldStyleArray": "NSObject", "NSObject": "",
    ])

    /// The class and its superclasses as this table knows them, most derived first; nil when
    /// the class is not in the table.
    public func chain(of name: String) -> [String]? {
        guard superclasses[name] != nil else { return nil }
        var chain = [name]
        var current = name
        while let parent = superclasses[current], !parent.isEmpty, !chain.contains(parent), chain.count < 64 {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// Whether the table knows the class.
    public func knows(_ name: String) -> Bool { superclasses[name] != nil }
}
