import Foundation
import PropertyList
import Synchronization

/// A binary archive's property list, read from its bytes the first time it is asked for.
final class DeferredPlist: Sendable {
    let data: Data
    let options: PropertyListReadOptions
    let cache = Mutex<PropertyListValue?>(nil)

    init(data: Data, options: PropertyListReadOptions) {
        self.data = data
        self.options = options
    }

    var value: PropertyListValue {
        cache.withLock { cached in
            if let cached { return cached }
            // The archive was decoded from these bytes with these options, after a scan that
            // applies every check the reader applies, so the read succeeds.
            let value = (try? BinaryPropertyListReader(options: options).read(data)) ?? .null
            cached = value
            return value
        }
    }
}
