/// Why a row needed no change.
public enum MigrationSkipReason: String, Sendable, Hashable, CaseIterable {
    case null
    /// Already in the target format: a previous run converted it (what makes reruns safe).
    case alreadyConverted
    /// An archive with none of the classes `--rename-class` renames (a rerun finds them all so).
    case nothingToRename
    /// Another writer changed the row between the read and the write: it is left as that
    /// writer left it, never overwritten (a rerun converts it if it still needs it).
    case changedMeanwhile
}
