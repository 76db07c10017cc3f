import Foundation

/// Reads how far the standbys replay behind (`pg_stat_replication.replay_lag`), at most once a
/// second while they keep up, and says why to wait while one is too far behind.
struct ReplicationLagProbe: Sendable {
    /// Seconds a standby may be behind.
    let maximum: Double
    /// The query; tests replace it, having no standby.
    let sql: String
    var checkedAt: UInt64 = 0

    static let defaultSQL = "SELECT COALESCE(max(EXTRACT(epoch FROM replay_lag)), 0)::float8 FROM pg_stat_replication"

    mutating func pauseReason(on connection: PostgresConnection) throws(PostgresError) -> String? {
        let now = DispatchTime.now().uptimeNanoseconds
        if checkedAt != 0, now - checkedAt < 1_000_000_000 { return nil }
        let lag = try connection.query(sql).double(0, 0) ?? 0
        guard lag > maximum else {
            checkedAt = now
            return nil
        }
        checkedAt = 0
        return String(format: "paused: a standby replays %.1f s behind (--max-replication-lag %@ s)", lag,
                      maximum.formatted(.number.precision(.fractionLength(0...3))))
    }
}
