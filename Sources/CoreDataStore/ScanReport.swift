import ArchivePayload
import CoreDataModel
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
    /// The allow-list the verdicts were made under, where no transformer of the model decides.
    public var allowList: AllowList
    /// The model the store was read with, if any.
    public var model: LoadedModel?
    /// Why there is no model, when the store's own was asked for.
    public var modelProblem: String?
    /// Core Data's own tables, with what each is.
    public var coreDataTables: [CoreDataTable] = []
    /// What does not add up (an entity without its table, an attribute without its column).
    public var warnings: [String] = []

    /// Every scanned column, table by table.
    public var columns: [ColumnReport] { tables.flatMap(\.columns) }
}
