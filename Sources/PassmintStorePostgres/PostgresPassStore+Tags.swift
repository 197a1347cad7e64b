import Logging
import PassmintStore
import PostgresNIO

/// Update tags on PostgreSQL. A change's tag is its transaction's id (`pg_current_xact_id()`) plus the highest tag
/// given before migration 9 (`counters.tag_base`): every change of one transaction shares it, and no change waits
/// for another to take it, so changes on every node commit side by side.
///
/// Transaction ids are given in the order transactions start writing, not in the order they commit: a change with a
/// lower tag may commit after one with a higher tag. A device's poll therefore never answers a `lastUpdated` past
/// the settled tag (``settledTagSQL``): every transaction with a lower id has ended, so a change that commits later
/// has a higher tag and the device's next poll finds it. A poll while a long transaction writes answers the passes
/// changed since again (the device fetches them again), never fewer.
extension PostgresPassStore {
    /// The tag of the caller's transaction (the same for each of its changes).
    static func nextTag(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        let rows = try await connection.query(
            "SELECT pg_current_xact_id()::text::int8 + value FROM counters WHERE name = 'tag_base'", logger: logger)
        for try await value in rows.decode(Int64.self) { return value }
        throw tagBaseMissing
    }

    /// A tag asked for where the counter the tags start from is not.
    static var tagBaseMissing: PassStoreError {
        PassStoreError(.database, "the tag_base counter is missing: run the migrations (migration 9)")
    }

    /// An expression for a query's select list: the highest tag no transaction of this database can still commit
    /// with, in the query's own snapshot: the lowest transaction id the snapshot sees running (of this database, or
    /// of no database known), or the snapshot's upper bound when none runs, less one, plus the base. A poll's
    /// `lastUpdated` is at most this. Transactions of other databases on the server are left out only when
    /// `pg_stat_activity` names their database; any other running id holds the tag back (a poll answers more, never
    /// less).
    static let settledTagSQL = """
        (SELECT COALESCE(
            (SELECT MIN(x::text::int8) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
             WHERE (x::text::int8 % 4294967296)::text NOT IN (
                SELECT a.backend_xid::text FROM pg_stat_activity a WHERE a.datname <> current_database() AND a.backend_xid IS NOT NULL)),
            pg_snapshot_xmax(pg_current_snapshot())::text::int8) - 1 + value
         FROM counters WHERE name = 'tag_base')
        """

    /// A device's poll from rows of (identifier, tag, settled tag) in tag order: the identifiers changed, and the
    /// `lastUpdated` to answer, never past the settled tag (``settledTagSQL``).
    static func polled(_ rows: PostgresRowSequence, since updatedSince: Int64?) async throws -> (identifiers: [String], lastUpdated: Int64)
    {
        var polled = (identifiers: [String](), lastUpdated: updatedSince ?? 0)
        for try await (identifier, tag, settled) in rows.decode((String, Int64, Int64).self) {
            polled.identifiers.append(identifier)
            polled.lastUpdated = max(polled.lastUpdated, min(tag, settled))
        }
        return polled
    }
}
