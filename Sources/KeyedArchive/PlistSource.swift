import PropertyList
import TypedStream

/// Where `KeyedArchive.plist` comes from: a value, or the bytes it is read from when asked for.
struct PlistSource: Sendable, Equatable {
    enum Storage: Sendable {
        case value(PropertyListValue)
        case deferred(DeferredPlist)
        /// The keyed archive of a typedstream's objects, made again when asked for rather than
        /// kept beside the decoded objects.
        case typedStream(TypedStream)
    }

    var storage: Storage

    init(_ value: PropertyListValue) { storage = .value(value) }
    init(_ deferred: DeferredPlist) { storage = .deferred(deferred) }
    init(keyedFormOf stream: TypedStream) { storage = .typedStream(stream) }

    var value: PropertyListValue {
        switch storage {
        case .value(let v): v
        case .deferred(let d): d.value
        case .typedStream(let stream):
            {
                var archiver = TypedStreamKeyedArchiver(stream: stream)
                return archiver.archive()
            }()
        }
    }

    static func == (a: PlistSource, b: PlistSource) -> Bool {
        // The same bytes read with the same options are the same value; otherwise compare values.
        if case .typedStream(let x) = a.storage, case .typedStream(let y) = b.storage { return x == y }
        if case .deferred(let x) = a.storage, case .deferred(let y) = b.storage,
           x === y || (x.options == y.options && x.data == y.data) {
            return true
        }
        return a.value == b.value
    }
}
