import CoreDataModel
import CoreDataStore
import Foundation
import StoreFixtures
import Testing

/// The model in each real store's `Z_MODELCACHE` agrees with the store's tables and columns.
@Suite(.enabled(if: CorpusStores.isAvailable, "needs ../shared/corpus/stores"))
struct CorpusModelTests {
    static let expectedEntities = [
        "Accounts3.sqlite": 7, "CallHistory.sqlite": 6, "ChatStorage.sqlite": 15, "ContactsV2.sqlite": 1,
        "NoteStore.sqlite": 18, "SkypeSpacesDogfood.sqlite": 46,
    ]

    @Test(arguments: CorpusStores.names)
    func theModelCacheHasEveryEntityTableAndEveryStoredAttributeHasItsColumn(_ name: String) throws {
        let path = try CorpusStores.copy(name)
        let schema = try StoreScanner().schema(path: path)
        let model = try #require(schema.model?.model, "\(name): \(schema.modelProblem ?? "")")
        #expect(model.entities.count == Self.expectedEntities[name])
        #expect(schema.warnings.isEmpty, "\(schema.warnings)")
        // Every Z<ENTITY> table has its entity, and every app entity of Z_PRIMARYKEY is in the model.
        let tables = Set(schema.tables.map(\.name))
        for table in tables where table.hasPrefix("Z") && !table.hasPrefix("Z_") {
            #expect(model.table(named: table) != nil, "\(name): table \(table) has no entity in the model")
        }
        for entity in schema.entities where !entity.isPersistentHistory {
            #expect(model.entity(named: entity.name) != nil, "\(name): Z_PRIMARYKEY's \(entity.name) is not in the model")
        }
        // Every stored attribute has its column, and every column is the model's.
        for entity in model.entities {
            for attribute in entity.attributes where attribute.isStored {
                let column = try #require(attribute.column)
                let table = schema.tables.first { $0.name == entity.table }
                #expect(table?.column(named: column) != nil, "\(name): \(entity.name).\(attribute.name) has no column \(column)")
            }
        }
        for table in schema.tables {
            for column in table.columns where column.role == .attribute {
                #expect(column.modelRole != nil, "\(name): \(table.name).\(column.name) is not in the model")
            }
        }
    }

    @Test func theNotesStoreOpensWithItsPersistentHistoryListedAsCoreDatas() throws {
        let path = try CorpusStores.copy("NoteStore.sqlite")
        let schema = try StoreScanner().schema(path: path)
        let history = schema.coreDataTables.filter { $0.kind == .persistentHistory }.map(\.name)
        #expect(history == ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"])
        #expect(schema.entities.filter(\.isPersistentHistory).map(\.name) == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
        #expect(!schema.tables.contains { $0.name.hasPrefix("A") })
        // ICCloudSyncingObject's subentities share its table; same-named attributes take ZTITLE1, ZTITLE2.
        let model = try #require(schema.model?.model)
        #expect(model.entity(named: "ICAttachment")?.attribute(named: "title")?.column == "ZTITLE")
        #expect(model.entity(named: "ICNote")?.attribute(named: "title")?.column == "ZTITLE1")
        #expect(model.entity(named: "ICNoteContainer")?.attribute(named: "title") == nil)
        #expect(model.table(named: "ZICCLOUDSTATE")?.role(ofColumn: "Z2_CLOUDSYNCINGOBJECT") == .toOneEntity(entity: "ICCloudState", name: "cloudSyncingObject"))
    }

    @Test func theAccountsStoreHasItsManyToManyTablesFromTheModel() throws {
        let path = try CorpusStores.copy("Accounts3.sqlite")
        let schema = try StoreScanner().schema(path: path)
        let joins = schema.coreDataTables.filter { $0.kind == .joinTable }
        #expect(joins.count == 5)
        #expect(joins.allSatisfy { $0.relationship != nil }, "\(joins)")
        #expect(joins.first { $0.name == "Z_1OWNINGACCOUNTTYPES" }?.relationship == "AccessOptionsKey.owningAccountTypes ↔ AccountType.accessKeys")
    }
}
