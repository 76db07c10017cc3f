@_spi(Writers) import PropertyList

/// The color components of a `TypedStreamValueTable`'s colors, each distinct value worked out
/// once: its text in the keyed form (`TypedStreamKeyedArchiver.appendTenDigits`) and that text
/// read back as `ArchivedColorDecoder.numbers` reads it; and the JSON text of each real a
/// decoded color holds. Colors share a few component values; the entries hold no reference, so
/// looking one up retains nothing.
package struct TypedStreamColorComponents {
    package init() {}

    package struct Entry {
        package var text: Range<Int32>
        /// The text read back, when it reads.
        package var value: Double?
    }

    private var indices: [UInt64: Int32] = [:]
    private var entries: [Entry] = []
    /// The JSON text of each finite real written, by its bits.
    private var realTexts: [UInt64: Range<Int32>] = [:]
    /// The texts of every entry and real.
    private var texts: [UInt8] = []

    /// The entry of `component`, worked out the first time.
    package mutating func entry(of component: Double) -> Entry {
        if let known = indices[component.bitPattern] { return entries[Int(known)] }
        let start = texts.count
        TypedStreamKeyedArchiver.appendTenDigits(component, to: &texts)
        let entry = Entry(text: Int32(start)..<Int32(texts.count), value: Double(String(decoding: texts[start...], as: UTF8.self)))
        entries.append(entry)
        indices[component.bitPattern] = Int32(entries.count - 1)
        return entry
    }

    /// The components the keyed form writes of a color's `components`: all but a last one of 1
    /// (an opaque alpha).
    static func shown(_ components: ArraySlice<Double>) -> ArraySlice<Double> {
        // Sliced, not shortened: shortening a slice of the table's array would copy it.
        components.count > 1 && components.last == 1 ? components.dropLast() : components
    }

    /// A color's components as its keyed form writes them (`NSRGB`, `NSWhite`, `NSCMYK`): the
    /// texts apart by spaces, then a NUL.
    package mutating func appendText(of components: ArraySlice<Double>, to bytes: inout [UInt8]) {
        for (i, component) in Self.shown(components).enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: " ")) }
            let text = entry(of: component).text
            bytes.append(contentsOf: texts[Int(text.lowerBound)..<Int(text.upperBound)])
        }
        bytes.append(0)
    }

    /// The color `ArchivedColorDecoder.decode` reads from that text
    /// (`TypedStreamValueTable.color(kind:_:)`); nil when a component does not read back or
    /// the color does not decode.
    package mutating func decodedColor(kind: Int64, _ components: ArraySlice<Double>) -> ArchivedColor? {
        let shown = Self.shown(components)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: max(shown.count, 1)) { values -> ArchivedColor? in
            for (i, component) in shown.enumerated() {
                guard let value = entry(of: component).value else { return nil }
                values[i] = value
            }
            return TypedStreamValueTable.color(kind: kind, UnsafeBufferPointer(rebasing: values[0..<shown.count]))
        }
    }

    /// `KeyedArchiveJSONExporter.DocumentWriter.writeReal` of a real of a decoded color: the
    /// text of a finite value written once and copied after.
    mutating func writeReal(_ value: Double, level: Int, into e: inout JSONEmitter) {
        guard value.isFinite else { return KeyedArchiveJSONExporter.DocumentWriter.writeReal(value, level: level, into: &e) }
        if let known = realTexts[value.bitPattern] {
            return texts.withUnsafeBufferPointer { e.out.append(UnsafeBufferPointer(rebasing: $0[Int(known.lowerBound)..<Int(known.upperBound)])) }
        }
        let start = e.out.length
        e.writeFiniteReal(value)
        let from = texts.count
        texts.append(contentsOf: e.out.bytes(start..<e.out.length))
        realTexts[value.bitPattern] = Int32(from)..<Int32(texts.count)
    }
}
