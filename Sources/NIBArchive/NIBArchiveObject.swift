/// One object of a nib: its class, and the run of the value table that holds its fields.
public struct NIBArchiveObject: Sendable, Hashable {
    /// An index into `NIBArchive.classNames`.
    public var classIndex: Int
    /// The first of the object's values in `NIBArchive.values`.
    public var firstValue: Int
    public var valueCount: Int

    public init(classIndex: Int, firstValue: Int, valueCount: Int) {
        self.classIndex = classIndex
        self.firstValue = firstValue
        self.valueCount = valueCount
    }

    /// The object's values in `NIBArchive.values` (checked to lie inside it when read).
    public var valueRange: Range<Int> { firstValue..<firstValue + valueCount }
}
