/// Why a row was not converted and left as it is.
public enum MigrationFailureReason: String, Sendable, Hashable, CaseIterable {
    /// The value starts like an archive or plist but does not read.
    case unreadable
    /// The allow-list refuses a class in the archive.
    case refused
    /// The archive's objects loop, or nest too deep, or name no root: no tree-shaped payload.
    case unmappable
    /// The payload cannot be written in the target format (NaN in JSON, a date out of range).
    case unrepresentable
    /// The new bytes did not decode back to the payload.
    case verificationFailed
    /// The value lives in an `_EXTERNAL_DATA` file, which a migration does not rewrite.
    case externalReference
    /// The value is not a keyed archive, nor already in the target format.
    case notAnArchive
    /// The row's batch could not get its row locks in time, however often it was tried
    /// (`--lock-timeout`): left as it is; a rerun converts it.
    case locked
    /// The database refused the new value (a constraint, a trigger, a column type that cannot
    /// hold it); the row is left as it was.
    case rejected
}
