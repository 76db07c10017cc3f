/// Which model `scan` and `migrate` name and judge attributes by.
public enum ModelChoice: Sendable, Hashable {
    /// The store's own `Z_MODELCACHE`, when it has one (the default).
    case storeCache
    /// A model file: a `.mom`, `.momd`, `.xcdatamodeld`, `.xcdatamodel`, or another store.
    case file(String)
    /// No model: names from the columns, every archive judged by the given list.
    case none
}
