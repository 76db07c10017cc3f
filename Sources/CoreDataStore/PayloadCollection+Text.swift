extension PayloadCollection {
    /// One sentence per reason values were left out, the most frequent first: `3 values are left
    /// out, such as Z_PK 12: a JPEG image`. What `archivist codegen` says on standard error.
    public var leftOutSentences: [String] {
        leftOut.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }.map { _, entry in
            "\(entry.count) value\(entry.count == 1 ? " is" : "s are") left out, such as \(entry.first): \(entry.reason)"
        }
    }
}
