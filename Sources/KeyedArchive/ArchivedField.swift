/// One keyed field of an archived object, with its key unescaped (`$$key` is read as `$key`).
public struct ArchivedField: Sendable, Hashable {
    public var key: String
    public var value: ArchivedValue

    public init(key: String, value: ArchivedValue) {
        self.key = key
        self.value = value
    }
}
