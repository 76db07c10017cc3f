/// Where `ArchiveUnarchiver.writeJSON(of:options:to:)` puts the JSON payload: when it can drop
/// what it was given (a temporary file renamed into place at the end), the JSON goes to it in
/// pieces as the archive is walked and is never held whole; otherwise (a pipe, a device) it
/// goes whole, once nothing can fail any more.
public protocol UnarchivedJSONOutput {
    /// Whether bytes handed on can be dropped again by `discardWritten()`.
    var canDiscardWritten: Bool { get }
    /// Takes the next bytes of the JSON.
    func write(_ bytes: UnsafeRawBufferPointer)
    /// Drops every byte taken so far.
    func discardWritten()
}
