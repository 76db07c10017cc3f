extension PropertyListWarning {
    /// The warning for machines (`lint --format json`): what (`kind`, `message`) and, in a text
    /// document, where (`line`, `column`).
    public var jsonValue: PropertyListValue {
        var entries: [(PropertyListValue, PropertyListValue)] = [("kind", .string(code.rawValue)), ("message", .string(message))]
        if case .lineColumn(let line, let column) = location {
            entries.append(("line", .integer(PropertyListInteger(line))))
            entries.append(("column", .integer(PropertyListInteger(column))))
        }
        return .dictionary(PropertyListDictionary(entries))
    }
}
