/// A string compared and hashed by its UTF-8 bytes, as CF uniques strings: Swift's own String
/// equality would merge canonically equivalent strings ("é" and "e\u{301}") into one object.
struct LiteralString: Hashable {
    var string: String

    init(_ string: String) { self.string = string }

    static func == (a: LiteralString, b: LiteralString) -> Bool {
        literallyEqual(a.string, b.string)
    }

    func hash(into hasher: inout Hasher) {
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
