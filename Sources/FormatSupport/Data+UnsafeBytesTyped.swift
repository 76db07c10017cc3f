import Foundation

extension Data {
    /// `withUnsafeBytes` for a body that throws one error type, which it passes on as that type:
    /// Foundation's rethrows `any Error`, so every reader with a typed `throws` would otherwise
    /// carry its error out of the closure in a `Result` of its own.
    @inlinable
    package func withUnsafeBytesTyped<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBytes { raw in Result { () throws(E) in try body(raw) } }.get()
    }
}
