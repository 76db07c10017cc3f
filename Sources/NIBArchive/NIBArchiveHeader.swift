/// The header after the magic: two format numbers, then each table's count and byte offset.
public struct NIBArchiveHeader: Sendable, Hashable {
    /// The first number of the header: 1 in every archive seen.
    public var formatVersion: UInt32
    /// The second number: 10 in every archive Xcode writes today (9 in older ones).
    public var coderVersion: UInt32
    public var objectCount: Int
    public var objectsOffset: Int
    public var keyCount: Int
    public var keysOffset: Int
    public var valueCount: Int
    public var valuesOffset: Int
    public var classNameCount: Int
    public var classNamesOffset: Int

    public init(formatVersion: UInt32, coderVersion: UInt32, objectCount: Int, objectsOffset: Int, keyCount: Int, keysOffset: Int,
                valueCount: Int, valuesOffset: Int, classNameCount: Int, classNamesOffset: Int) {
        self.formatVersion = formatVersion
        self.coderVersion = coderVersion
        self.objectCount = objectCount
        self.objectsOffset = objectsOffset
        self.keyCount = keyCount
        self.keysOffset = keysOffset
        self.valueCount = valueCount
        self.valuesOffset = valuesOffset
        self.classNameCount = classNameCount
        self.classNamesOffset = classNamesOffset
    }

    /// The magic (10 bytes) and ten little-endian 32-bit numbers.
    public static let length = 50
}
