// The per-value pieces (StoredValue, ValueConverter, progress…) moved to KeyedBlobs, which
// PostgreSQL tables share; users of CoreDataStore keep seeing them without a second import.
@_exported import KeyedBlobs
