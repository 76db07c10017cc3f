import CoreDataModel
import CoreDataStore
import Foundation
import StoreFixtures

/// Times reading a store's model: the Teams store of the corpus (46 entities, 1,305
/// attributes, 63 kB of Z_MODELCACHE), from a private copy, in this process.
enum ModelBenchmark {
    static func run(repetitions: Int) {
        guard CorpusStores.isAvailable, CorpusStores.names.contains("SkypeSpacesDogfood.sqlite"),
              let path = try? CorpusStores.copy("SkypeSpacesDogfood.sqlite") else {
            print("model: skipped (../shared/corpus/stores is absent)")
            return
        }
        var schemaTimes: [Double] = []
        var cacheTimes: [Double] = []
        var cache = Data()
        for _ in 0..<max(3, repetitions) {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let schema = try? StoreScanner().schema(path: path), schema.model != nil else {
                print("model: the Teams store's model did not read")
                return
            }
            schemaTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        // The cache alone: inflate, decode the archive, build and lay out the model.
        if let queue = try? GRDBReader.cache(path) { cache = queue }
        for _ in 0..<max(3, repetitions) {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try? ModelReader().read(modelCache: cache)
            cacheTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        func summary(_ times: [Double]) -> String {
            let sorted = times.sorted()
            return String(format: "best %.1f ms, median %.1f ms", sorted[0], sorted[sorted.count / 2])
        }
        print("model of the Teams store (\(cache.count) bytes of Z_MODELCACHE), \(schemaTimes.count) runs")
        print("  open the store, read its schema and its model: \(summary(schemaTimes))")
        print("  Z_MODELCACHE → ManagedObjectModel alone:        \(summary(cacheTimes))")
    }
}

import GRDB

/// The raw `Z_MODELCACHE` bytes of a store copy.
enum GRDBReader {
    static func cache(_ path: String) throws -> Data {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") } ?? Data()
    }
}
