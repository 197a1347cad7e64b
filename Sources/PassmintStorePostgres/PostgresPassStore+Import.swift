public import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// Lazy issuing's bulk insert and the content-addressed images.
extension PostgresPassStore {
    public func insert(_ passes: [StoredPass], images: [StoredImage]) async throws -> [BulkInsertOutcome] {
        guard !passes.isEmpty || !images.isEmpty else { return [] }
        return try await write { connection in
            try await self.storeImages(connection, images, logger)
            guard !passes.isEmpty else { return [] }
            // The passes of the chunk share the transaction's tag (see `nextTag`).
            let tag = try await Self.nextTag(connection, logger)
            let now = clock()
            let stored = passes.map { $0.firstVersion(tag: tag, now: now) }
            let inserted = try await connection.query(
                """
                INSERT INTO passes (
                    pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at, template_version)
                SELECT t, s, a, n, d, v, g, u, NULLIF(tv, '')
                FROM UNNEST(\(stored.map(\.passTypeIdentifier))::text[], \(stored.map(\.serialNumber))::text[],
                    \(stored.map(\.authenticationToken))::text[], \(stored.map(\.template))::text[], \(stored.map(\.dataJSON))::text[],
                    \(stored.map(\.voided))::bool[], \(stored.map(\.updateTag))::int8[],
                    \(stored.map { Int64($0.updatedAt.timeIntervalSince1970) })::int8[], \(stored.map { $0.templateVersion ?? "" })::text[]) AS r(t, s, a, n, d, v, g, u, tv)
                ON CONFLICT DO NOTHING RETURNING pass_type_id, serial_number
                """, logger: logger)
            var new: Set<[String]> = []
            for try await (type, serial) in inserted.decode((String, String).self) { new.insert([type, serial]) }
            let issued = stored.filter { new.contains([$0.passTypeIdentifier, $0.serialNumber]) }.map {
                PassEvent(
                    kind: .issued, passTypeIdentifier: $0.passTypeIdentifier, serialNumber: $0.serialNumber, template: $0.template, at: now)
            }
            try await Self.insertEvents(connection, issued, logger)
            var tokens: [[String]: String] = [:]
            let others = passes.filter { !new.contains([$0.passTypeIdentifier, $0.serialNumber]) }
            if !others.isEmpty {
                let rows = try await connection.query(
                    """
                    SELECT p.pass_type_id, p.serial_number, p.authentication_token FROM passes p
                    JOIN UNNEST(\(others.map(\.passTypeIdentifier))::text[], \(others.map(\.serialNumber))::text[]) AS k(t, s)
                    ON p.pass_type_id = k.t AND p.serial_number = k.s
                    """, logger: logger)
                for try await (type, serial, token) in rows.decode((String, String, String).self) { tokens[[type, serial]] = token }
            }
            return passes.map { pass in
                new.contains([pass.passTypeIdentifier, pass.serialNumber])
                    ? .inserted : .existed(authenticationToken: tokens[[pass.passTypeIdentifier, pass.serialNumber]] ?? "")
            }
        }
    }

    /// Stores images in the caller's transaction, in one order (by SHA-256) so that two transactions storing the same
    /// images never wait for each other crosswise.
    func storeImages(_ connection: PostgresConnection, _ images: [StoredImage], _ logger: Logger) async throws {
        let stamp = PassEvent.milliseconds(clock())
        for image in images.sorted(by: { $0.sha256 < $1.sha256 }) {
            try await connection.query(
                """
                INSERT INTO images (sha256, bytes, stored_at) VALUES (\(image.sha256), \(Data(image.bytes)), \(stamp))
                ON CONFLICT (sha256) DO UPDATE SET stored_at = EXCLUDED.stored_at
                """, logger: logger)
        }
    }

    public func pruneImages(storedBefore: Date) async throws -> Int {
        // An image a change stores again while this runs gets a younger stored_at under a row lock: the DELETE waits
        // for that change, reads the row again and leaves it.
        try await write(notify: false) { connection in
            return try await connection.rowCount(
                """
                DELETE FROM images WHERE stored_at < \(PassEvent.milliseconds(storedBefore)) AND sha256 NOT IN (
                    SELECT (regexp_matches(data, 'sha256:([0-9a-f]{64})', 'g'))[1] FROM passes WHERE data LIKE '%sha256:%')
                RETURNING 1
                """, logger: logger)
        }
    }

    public func image(sha256: String) async throws -> [UInt8]? {
        try await client.withConnection { connection in
            let rows = try await connection.query("SELECT bytes FROM images WHERE sha256 = \(sha256)", logger: logger)
            for try await bytes in rows.decode(Data.self) { return [UInt8](bytes) }
            return nil
        }
    }
}
