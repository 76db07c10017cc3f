import TypedStream

/// Reads an object's groups front to back, as a class's `-initWithCoder:` would: each reader
/// takes the groups its class wrote and leaves the rest to its subclasses.
struct TypedStreamGroupCursor {
    let groups: [TypedStreamGroup]
    var index = 0

    init(_ groups: [TypedStreamGroup]) {
        self.groups = groups
    }

    var isAtEnd: Bool { index >= groups.count }
    var remaining: Int { groups.count - index }

    func peek() -> TypedStreamGroup? { isAtEnd ? nil : groups[index] }

    mutating func next() -> TypedStreamGroup? {
        guard !isAtEnd else { return nil }
        defer { index += 1 }
        return groups[index]
    }

    /// The next group when its encoding is `encoding` (struct names compared as written).
    mutating func next(ofEncoding encoding: String) -> TypedStreamGroup? {
        guard let group = peek(), group.encoding == encoding, !group.values.isEmpty else { return nil }
        index += 1
        return group
    }
}
