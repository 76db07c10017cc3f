import ArchivePayload
import Foundation
import PropertyList

/// What `StoreScanner` found in a store.
public struct ScanReport: Sendable {
    /// The store file.
    public var path: String
    public var isCoreData: Bool
    public var metadata: StoreMetadata?
    public var entities: [CoreDataEntity]
    public var tables: [TableReport]
    /// Core Data's bookkeeping tables, not scanned.
    public var internalTables: [String]
    /// The allow-list the verdicts were made under.
    public var allowList: AllowList

    /// Every scanned column, table by table.
    public var columns: [ColumnReport] { tables.flatMap(\.columns) }
}
