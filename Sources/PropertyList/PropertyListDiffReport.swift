import Foundation

/// The differences between two documents, as the `diff` verb reports them: one line each for
/// people, or one JSON document for programs.
public struct PropertyListDiffReport: Sendable, Hashable {
    /// What was compared: `propertyList` or `keyedArchive`.
    public var kind: String
    public var differences: [PropertyListDifference]

    public init(kind: String, differences: [PropertyListDifference]) {
        self.kind = kind
        self.differences = differences
    }

    public var isEqual: Bool { differences.isEmpty }

    /// One line per difference, in document order:
    ///
    /// ```
    /// ~ CFBundleVersion: "41" → "42"
    /// ~ Ratio: integer 1 → float 1.0 (type changed)
    /// + UIDeviceFamily.2: 3
    /// - LSMinimumSystemVersion: "13.0"
    /// ```
    /// The whole document is `(root)`. With `usesColors`, removals are red, additions green and
    /// changes yellow.
    public func text(usesColors: Bool = false) -> String {
        func paint(_ s: String, _ code: String) -> String { usesColors ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
        // A plain value shows as itself; an archived object with its class first.
        func shown(_ side: PropertyListDifference.Side?, withType: Bool = false) -> String {
            guard let side else { return "" }
            if side.summary.isEmpty { return side.type }
            return withType || side.value == nil ? "\(side.type) \(side.summary)" : side.summary
        }
        var out = ""
        for d in differences {
            let path = d.path.isEmpty ? "(root)" : d.path
            switch d.change {
            case .added:
                out += paint("+ \(path): \(shown(d.new))", "32")
            case .removed:
                out += paint("- \(path): \(shown(d.old))", "31")
            case .changed:
                out += paint("~ \(path): \(shown(d.old)) → \(shown(d.new))", "33")
            case .typeChanged:
                out += paint("~ \(path): \(shown(d.old, withType: true)) → \(shown(d.new, withType: true)) (type changed)", "33")
            }
            out += "\n"
        }
        return out
    }

    /// The report as JSON:
    ///
    /// ```json
    /// {"kind": "propertyList", "equal": false, "differences": [
    ///   {"path": "Ratio", "change": "typeChanged",
    ///    "old": {"type": "integer", "summary": "1", "value": 1},
    ///    "new": {"type": "float", "summary": "1.0", "value": 1}}]}
    /// ```
    /// `change` is `added`, `removed`, `changed` or `typeChanged`; `old` is absent when added and
    /// `new` when removed. `value` is the plain value (dates in ISO 8601, data in base64, UIDs
    /// as `{"CF$UID": N}`, NaN and the infinities as strings), absent for archived objects;
    /// `type` says which type the value has, since JSON cannot.
    public func json(pretty: Bool = true) throws(PropertyListError) -> Data {
        func side(_ s: PropertyListDifference.Side) -> PropertyListValue {
            var d = PropertyListDictionary()
            d.append(key: "type", value: .string(s.type))
            d.append(key: "summary", value: .string(s.summary))
            if let value = s.value { d.append(key: "value", value: value) }
            return .dictionary(d)
        }
        var list: [PropertyListValue] = []
        list.reserveCapacity(differences.count)
        for difference in differences {
            var d = PropertyListDictionary()
            d.append(key: "path", value: .string(difference.path))
            d.append(key: "change", value: .string(difference.change.rawValue))
            if let old = difference.old { d.append(key: "old", value: side(old)) }
            if let new = difference.new { d.append(key: "new", value: side(new)) }
            list.append(.dictionary(d))
        }
        var root = PropertyListDictionary()
        root.append(key: "kind", value: .string(kind))
        root.append(key: "equal", value: .bool(isEqual))
        root.append(key: "differences", value: .array(list))
        var options = JSONWriteOptions(dateEncodingStrategy: .iso8601,
                                       nonConformingFloatEncodingStrategy: .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))
        options.outputFormatting = pretty ? [.prettyPrinted, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        var data = try JSONPropertyListWriter(options: options).write(.dictionary(root))
        data.append(0x0A)
        return data
    }
}
