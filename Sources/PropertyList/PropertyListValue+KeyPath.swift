/// How `PropertyListValue.edit(_:at:mode:)` puts a value at a key path.
public enum PropertyListEditMode: String, Sendable, Hashable, CaseIterable {
    /// plutil's `-insert`: a new dictionary key (refused when the key exists), or a new array
    /// element at the index given, the elements after it moving up; the count appends.
    case insert
    /// The value must exist already: a dictionary key's value or an array element is overwritten.
    case replace
    /// Overwrite or add: a dictionary key is set whether or not it exists; an array element is
    /// overwritten, and the index equal to the count appends.
    case set
    /// The value at the path is an array, and the new value is added at its end (plutil's `-append`).
    case append
}

extension PropertyListValue {
    /// The value at `keyPath`, or nil when a component names nothing.
    ///
    /// A component indexes an array when it is a decimal number in range, and names a string
    /// key in a dictionary (the last entry with that key, as CF reads duplicates). Sets,
    /// scalars and non-string keys cannot be gone into.
    public func value(at keyPath: PropertyListKeyPath) -> PropertyListValue? {
        var current = self
        for component in keyPath.components {
            switch current {
            case .dictionary(let d):
                guard let i = d.lastIndex(ofKey: component) else { return nil }
                current = d.values[i]
            case .array(let a):
                guard let i = PropertyListKeyPath.index(component), a.indices.contains(i) else { return nil }
                current = a[i]
            default:
                return nil
            }
        }
        return current
    }

    /// Puts `value` at `keyPath` as `mode` says, changing this value in place.
    ///
    /// Every component but the last must name an existing array element or dictionary value;
    /// nothing is created on the way.
    /// - Throws: `PropertyListEditError`, and then this value is unchanged.
    public mutating func edit(_ value: PropertyListValue, at keyPath: PropertyListKeyPath, mode: PropertyListEditMode) throws(PropertyListEditError) {
        let components = keyPath.components
        if mode == .append {
            try modify(keyPath, depth: 0) { target, depth throws(PropertyListEditError) in
                guard case .array(var elements) = target else {
                    throw PropertyListEditError(.notAnArray, keyPath: keyPath, failedAt: depth,
                                                "the value at \(Self.describe(keyPath, depth)) is \(target.typeNameWithArticle), not an array to append to")
                }
                target = .null
                elements.append(value)
                target = .array(elements)
            }
            return
        }
        guard let last = components.last else {
            // The whole document: only an overwrite makes sense.
            guard mode != .insert else {
                throw PropertyListEditError(.rootNotEditable, keyPath: keyPath, failedAt: 0, "cannot insert at the top of the document; it already holds a value")
            }
            self = value
            return
        }
        let parent = PropertyListKeyPath(components: Array(components.dropLast()))
        let depth = components.count - 1
        try modify(parent, depth: 0, fullPath: keyPath) { container, _ throws(PropertyListEditError) in
            switch container {
            case .dictionary(var d):
                let existing = d.lastIndex(ofKey: last)
                switch (mode, existing) {
                case (.insert, .some):
                    throw PropertyListEditError(.alreadyExists, keyPath: keyPath, failedAt: depth,
                                                "a value already exists at \(keyPath); replace or set overwrites it")
                case (.replace, .none):
                    throw PropertyListEditError(.notFound, keyPath: keyPath, failedAt: depth, "no value at \(keyPath) to replace")
                default:
                    container = .null
                    if let existing {
                        d.modifyValue(at: existing) { $0 = value }
                    } else {
                        d.append(key: .string(last), value: value)
                    }
                    container = .dictionary(d)
                }
            case .array(var a):
                guard let i = PropertyListKeyPath.index(last) else {
                    throw PropertyListEditError(.invalidIndex, keyPath: keyPath, failedAt: depth,
                                                "'\(last)' is not an index into the array at \(Self.describe(keyPath, depth))")
                }
                // Replacing needs an element; inserting and setting may also add one at the end.
                let allowed = mode == .replace ? a.count - 1 : a.count
                guard i >= 0, i <= allowed else {
                    throw PropertyListEditError(.indexOutOfRange, keyPath: keyPath, failedAt: depth,
                                                "index \(i) is out of range for the array of \(a.count) at \(Self.describe(keyPath, depth))")
                }
                container = .null
                if mode == .insert || i == a.count {
                    a.insert(value, at: i)
                } else {
                    a[i] = value
                }
                container = .array(a)
            default:
                throw PropertyListEditError(.notAContainer, keyPath: keyPath, failedAt: depth,
                                            "cannot put a value inside \(container.typeNameWithArticle) at \(Self.describe(keyPath, depth))")
            }
        }
    }

    /// Removes the value at `keyPath`: a dictionary entry (every entry with that key) or an
    /// array element, the elements after it moving down.
    ///
    /// - Returns: the value removed.
    /// - Throws: `PropertyListEditError`, and then this value is unchanged.
    @discardableResult
    public mutating func remove(at keyPath: PropertyListKeyPath) throws(PropertyListEditError) -> PropertyListValue {
        guard let last = keyPath.components.last else {
            throw PropertyListEditError(.rootNotEditable, keyPath: keyPath, failedAt: 0, "cannot remove the whole document")
        }
        let parent = PropertyListKeyPath(components: Array(keyPath.components.dropLast()))
        let depth = keyPath.components.count - 1
        var removed = PropertyListValue.null
        try modify(parent, depth: 0, fullPath: keyPath) { container, _ throws(PropertyListEditError) in
            switch container {
            case .dictionary(var d):
                guard let i = d.lastIndex(ofKey: last) else {
                    throw PropertyListEditError(.notFound, keyPath: keyPath, failedAt: depth, "no value at \(keyPath) to remove")
                }
                removed = d.values[i]
                container = .null
                d.removeAll(key: last)
                container = .dictionary(d)
            case .array(var a):
                guard let i = PropertyListKeyPath.index(last), a.indices.contains(i) else {
                    throw PropertyListEditError(.notFound, keyPath: keyPath, failedAt: depth, "no value at \(keyPath) to remove")
                }
                container = .null
                removed = a.remove(at: i)
                container = .array(a)
            default:
                throw PropertyListEditError(.notFound, keyPath: keyPath, failedAt: depth, "no value at \(keyPath) to remove: \(Self.describe(keyPath, depth)) is \(container.typeNameWithArticle)")
            }
        }
        return removed
    }

    /// Follows `path` from `depth` and runs `body` on the value found, in place: each
    /// collection on the way is taken out of its parent while it changes, so nothing is copied
    /// when the tree is not shared.
    private mutating func modify(_ path: PropertyListKeyPath, depth: Int, fullPath: PropertyListKeyPath? = nil,
                                 _ body: (inout PropertyListValue, Int) throws(PropertyListEditError) -> Void) throws(PropertyListEditError) {
        let reported = fullPath ?? path
        guard depth < path.components.count else {
            try body(&self, depth)
            return
        }
        let component = path.components[depth]
        switch self {
        case .dictionary(var d):
            guard let i = d.lastIndex(ofKey: component) else {
                throw PropertyListEditError(.notFound, keyPath: reported, failedAt: depth, "no value at \(Self.describe(reported, depth + 1))")
            }
            self = .null
            defer { self = .dictionary(d) }
            try d.modifyValue(at: i) { (child: inout PropertyListValue) throws(PropertyListEditError) in
                try child.modify(path, depth: depth + 1, fullPath: fullPath, body)
            }
        case .array(var a):
            guard let i = PropertyListKeyPath.index(component) else {
                throw PropertyListEditError(.invalidIndex, keyPath: reported, failedAt: depth,
                                            "'\(component)' is not an index into the array at \(Self.describe(reported, depth))")
            }
            guard a.indices.contains(i) else {
                throw PropertyListEditError(.indexOutOfRange, keyPath: reported, failedAt: depth,
                                            "index \(i) is out of range for the array of \(a.count) at \(Self.describe(reported, depth))")
            }
            self = .null
            defer { self = .array(a) }
            try a[i].modify(path, depth: depth + 1, fullPath: fullPath, body)
        default:
            throw PropertyListEditError(.notAContainer, keyPath: reported, failedAt: depth,
                                        "no value at \(Self.describe(reported, depth + 1)): \(Self.describe(reported, depth)) is \(typeNameWithArticle)")
        }
    }

    /// The first `count` components of `path` as text, or "the top of the document".
    static func describe(_ path: PropertyListKeyPath, _ count: Int) -> String {
        count == 0 ? "the top of the document" : PropertyListKeyPath(components: Array(path.components.prefix(count))).description
    }

    /// "a dictionary", "an array", "an integer"…
    var typeNameWithArticle: String {
        let name = typeName
        return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }
}
