/// A color's components, as the migrated JSON spells them: what a UIColor or NSColor blob of
/// the store and PostgreSQL fixtures becomes.
public struct MigratedColor: Sendable, Hashable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Equal as the float32 components UIColor keeps (JSON spells them shortest).
    public func matches(_ other: MigratedColor) -> Bool {
        Float(red) == Float(other.red) && Float(green) == Float(other.green)
            && Float(blue) == Float(other.blue) && Float(alpha) == Float(other.alpha)
    }
}
