import Foundation
import KeyedBlobs

/// Converts the archives of one column of a PostgreSQL table, in place or into another column,
/// with the engine every table of keyed blobs shares (`KeyedBlobMigrator`).
///
/// Everything that can be checked is checked before the first write: the URL, the connection,
/// the table, column and key, the types of the columns read and written, the role's
/// privileges, the backup table, and that the server is a primary. A refused request writes
/// nothing.
public struct PostgresMigrator: Sendable {
    public var options: PostgresMigrationOptions

    public init(options: PostgresMigrationOptions) {
        self.options = options
    }

    /// Migrates `request.column` of `request.table` at `url`.
    ///
    /// - Parameters:
    ///   - url: the server and database to connect to.
    ///   - request: the table, column and key to migrate.
    ///   - progress: called on this thread after each batch (several times a second with
    ///     several workers).
    /// - Throws: `PostgresError` when the request cannot run; rows that fail do not throw,
    ///   they are in the result.
    public func migrate(_ url: PostgresURL, _ request: PostgresTableLocation.Request,
                        progress: ((MigrationProgress) -> Void)? = nil) throws(PostgresError) -> PostgresMigrationResult {
        let migration = options.migration
        guard migration.batchSize >= 1 else { throw PostgresError(.invalidRequest, "--batch must be at least 1") }
        guard options.workers >= 1 else { throw PostgresError(.invalidRequest, "--workers must be at least 1") }
        let connectionOptions = PostgresConnection.Options(connectTimeout: options.connectTimeout, readOnly: migration.dryRun)
        let connection = try PostgresConnection(url: url, options: connectionOptions)
        let location = try PostgresTableLocation.locate(request, on: connection)
        let target = try writeTarget(location, on: connection)
        let lag = try lagProbe(on: connection)
        let shard = options.shard
        let workers = options.workers
        let lockTimeout = options.lockTimeout
        let total = (location.estimatedRows ?? 0) / shard.count
        var engineOptions = migration
        engineOptions.copiesValuesInTargetFormat = target.isSeparateColumn
        let engine = KeyedBlobMigrator(options: engineOptions)
        let tally: KeyedBlobTally<PostgresKey>
        if workers == 1 {
            // A dry run reads what a real one would (with --into, whether the target is filled)
            // and never writes: the engine does not call the table's write.
            var lane = PostgresLane(table: PostgresBlobTable(connection: connection, location: location, shard: shard,
                                                             target: target, lockTimeout: lockTimeout), lag: lag)
            tally = try engine.migrate(&lane, total: total, progress: progress)
        } else {
            tally = try engine.migrate(lanes: workers, total: total, makeTable: { lane throws(PostgresError) in
                let own = try PostgresConnection(url: url, options: connectionOptions)
                return PostgresLane(table: PostgresBlobTable(connection: own, location: location, shard: shard.split(worker: lane, of: workers),
                                                             target: target, lockTimeout: lockTimeout), lag: lag)
            }, progress: progress)
        }
        return PostgresMigrationResult(source: url.redacted, location: location, target: migration.conversion.target,
                                       into: target.isSeparateColumn ? target.column : nil, backupTable: target.backupTable,
                                       dryRun: migration.dryRun, shard: shard, workers: workers, tally: tally)
    }

    /// The column written and the backup table, checked (and the backup table made, unless
    /// this is a dry run) before anything is written.
    func writeTarget(_ location: PostgresTableLocation, on connection: PostgresConnection) throws(PostgresError) -> PostgresWriteTarget {
        let format = options.migration.conversion.target
        let table = location.tableName
        var target = PostgresWriteTarget(column: location.column, isSeparateColumn: false, backupTable: nil)
        if let name = options.into {
            guard options.backupTable == nil else {
                throw PostgresError(.invalidRequest, "--backup-table keeps old values of an in-place migration; with --into the column \(location.column.name) keeps them itself")
            }
            let columns = try PostgresTableLocation.columns(of: try location.oid(on: connection), on: connection)
            let into = try PostgresTableLocation.find(name, in: columns, table: table, role: "column (--into)")
            guard into.name != location.column.name else {
                throw PostgresError(.invalidRequest, "--into names the column being migrated; leave it out to migrate in place", table: table)
            }
            guard into.name != location.key.name else {
                throw PostgresError(.invalidRequest, "--into names the key column \(into.name)", table: table)
            }
            target = PostgresWriteTarget(column: into, isSeparateColumn: true, backupTable: nil)
        }
        let column = target.column
        let fits: Bool = switch column.storage {
        case .bytes: true
        case .json: format == .json
        case .text: format.isText
        case .other: false
        }
        guard fits else {
            let flag = target.isSeparateColumn ? "--into \(column.name)" : column.name
            let holds = switch column.storage {
            case .json: "JSON only; use --to json, or a bytea column"
            case .text: "text, not binary (a property list or an archive); use --to json or xml, or --into a bytea column"
            default: "no documents; use a bytea, text or jsonb column"
            }
            throw PostgresError(.wrongType, "\(flag) is \(column.typeName), which holds \(holds)", table: table)
        }
        guard !options.migration.dryRun else { return target }
        if try connection.query("SELECT pg_is_in_recovery()").bool(0, 0) == true {
            throw PostgresError(.invalidRequest, "the server is a standby (in recovery); migrate writes, so run it against the primary")
        }
        try location.require("UPDATE", on: [column], connection: connection)
        if target.isSeparateColumn { try location.require("SELECT", on: [column], connection: connection) }
        if let name = options.backupTable {
            target.backupTable = try PostgresBackupTable.prepare(name, for: location, on: connection)
        }
        return target
    }

    /// The replication-lag check, after making sure the role can see the standbys' lag.
    func lagProbe(on connection: PostgresConnection) throws(PostgresError) -> ReplicationLagProbe? {
        guard let maximum = options.maximumReplicationLag, !options.migration.dryRun else { return nil }
        if options.replicationLagSQL == ReplicationLagProbe.defaultSQL {
            let allowed = try connection.query("""
                SELECT rolsuper OR pg_has_role(current_user, 'pg_monitor', 'USAGE') FROM pg_roles WHERE rolname = current_user
                """).bool(0, 0) ?? false
            guard allowed else {
                throw PostgresError(.permissionDenied, "--max-replication-lag reads pg_stat_replication, whose lag columns role \(connection.user) cannot see; grant it pg_monitor")
            }
        }
        return ReplicationLagProbe(maximum: maximum, sql: options.replicationLagSQL)
    }
}
