/// A class name of a nib, with the 32-bit numbers the format allows before it (none in any
/// archive seen; kept when present).
public struct NIBArchiveClassName: Sendable, Hashable {
    public var name: String
    public var extras: [Int32]

    public init(name: String, extras: [Int32] = []) {
        self.name = name
        self.extras = extras
    }
}
