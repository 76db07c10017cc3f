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
