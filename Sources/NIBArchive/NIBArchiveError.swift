/// Why bytes are not a readable NIBArchive, and where: the byte offset, and the entry being
/// read (`value 12`, `object 3`) when the problem is inside one.
///
/// `error.code` is `.notANIBArchive` or one of the shared kinds: `truncated` (a table, or a value in
/// one, runs past the end of the bytes), `malformed` (a count, offset, index, type byte or name
/// breaks the rules), `limitExceeded` (a limit of `NIBArchiveReadOptions`).
public typealias NIBArchiveError = ByteInputError<NIBArchiveFormat>

extension ErrorCode where Domain == NIBArchiveError {
    /// The bytes do not start with the magic `NIBArchive`.
    public static var notANIBArchive: Self { Self() }
}
