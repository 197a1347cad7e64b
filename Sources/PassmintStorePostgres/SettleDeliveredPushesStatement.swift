import PassmintStore
import PostgresNIO

/// A push round's settlement when every push was delivered (the usual round), prepared and committing on its own: one
/// round trip instead of `BEGIN`, the lock, the delete, the results and `COMMIT`.
///
/// It does what ``PostgresPassStore/settleRows(_:of:_:key:)`` does for done rows, in one statement: the rows are
/// locked first in key order (byte order, as a change group upserts them), each at the generation it holds now (a
/// row a change committed after this statement's snapshot is locked, and read, at that change's version); a row still
/// at the generation the push covered leaves the queue; a row a newer change owes again is freed for the next claim;
/// each push's result is kept. Every row it deletes or frees was locked by it first, so the statement waits for a
/// change group writing the same rows, never the other way round.
struct SettleDeliveredPushesStatement: PostgresPreparedStatement {
    static let sql = """
        WITH locked AS (
            SELECT o.push_token AS a, o.pass_type_id AS b, o.generation = d.g AS covered FROM push_outbox o
            JOIN UNNEST($1::text[], $2::text[], $3::int8[]) AS d(a, b, g) ON o.push_token = d.a AND o.pass_type_id = d.b
            ORDER BY o.push_token COLLATE "C", o.pass_type_id COLLATE "C" FOR UPDATE OF o
        ), done AS (
            DELETE FROM push_outbox o USING locked l WHERE o.push_token = l.a AND o.pass_type_id = l.b AND l.covered
        ), again AS (
            UPDATE push_outbox o SET lease_until = 0 FROM locked l WHERE o.push_token = l.a AND o.pass_type_id = l.b AND NOT l.covered
        )
        INSERT INTO push_results (push_token, pass_type_id, result, at)
        SELECT t, p, r, $7 FROM UNNEST($4::text[], $5::text[], $6::text[]) AS r(t, p, r)
        ON CONFLICT (push_token, pass_type_id) DO UPDATE SET result = excluded.result, at = excluded.at
        """
    static let bindingDataTypes: [PostgresDataType] = [.textArray, .textArray, .int8Array, .textArray, .textArray, .textArray, .int8]
    typealias Row = Void

    /// The pushes delivered, each with the generation it covered (one a push token and pass type, as a claim takes them).
    var delivered: [Owed<PushTarget>]
    /// Each push's result (JSON text), kept per push token and pass type.
    var results: [(push: Owed<PushTarget>, resultJSON: String)]
    /// When the results were had, in milliseconds.
    var now: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(delivered.map(\.pushToken))
        bindings.append(delivered.map(\.passTypeIdentifier))
        bindings.append(delivered.map(\.generation))
        bindings.append(results.map(\.push.pushToken))
        bindings.append(results.map(\.push.passTypeIdentifier))
        bindings.append(results.map(\.resultJSON))
        bindings.append(now)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}
