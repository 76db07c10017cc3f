import PropertyList

extension KeyedArchive {
    /// Whether two archives hold the same object graph, whatever UIDs their objects were given.
    ///
    /// References must pair up one to one: an object shared in one archive must be shared in the
    /// other, and a cycle must close at the same place. Fields compare by key, whatever their order.
    public func isEquivalent(to other: KeyedArchive) -> Bool {
        isEquivalent(to: other, renamingClasses: { $0 })
    }

    /// Whether `other` holds this archive's object graph with its classes renamed by `rename`
    /// (`KeyedArchiveClassRenamer.renamed(_:)`): what a class rename must leave unchanged.
    public func isEquivalent(to other: KeyedArchive, renamingClasses rename: (String) -> String) -> Bool {
        var pairing: [Int: Int] = [:]
        var reverse: [Int: Int] = [:]
        var pending: [(Int, Int)] = []

        func same(_ a: ArchivedValue, _ b: ArchivedValue) -> Bool {
            switch (a, b) {
            case (.null, .null): return true
            case (.inline(let x), .inline(let y)): return x == y
            case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
            case (.object(let x), .object(let y)):
                if let paired = pairing[x] { return paired == y }
                if reverse[y] != nil { return false }
                pairing[x] = y
                reverse[y] = x
                pending.append((x, y))
                return true
            default: return false
            }
        }

        let tops = Dictionary(other.top.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        guard top.count == other.top.count else { return false }
        for entry in top {
            guard let counterpart = tops[entry.key], same(entry.value, counterpart) else { return false }
        }
        while let (x, y) = pending.popLast() {
            let a = x < objects.count ? objects[x] : nil
            let b = y < other.objects.count ? other.objects[y] : nil
            guard let a, let b else { return a == nil && b == nil }
            guard a.archivedClass.map({ rename($0.name) }) == b.archivedClass?.name,
                  a.archivedClass.map({ $0.chain.map(rename) }) == b.archivedClass?.chain,
                  a.archivedClass.map({ $0.hints.map(rename) }) == b.archivedClass?.hints,
                  a.fields.count == b.fields.count else { return false }
            if a.archivedClass == nil {
                guard a.content == b.content else { return false }
                continue
            }
            let otherFields = Dictionary(b.fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            for f in a.fields {
                guard let v = otherFields[f.key], same(f.value, v) else { return false }
            }
        }
        return true
    }
}
