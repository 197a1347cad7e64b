import Foundation
public import PassmintStore
import PostgresNIO

/// Google Wallet's save/delete callbacks on PostgreSQL: a callback's nonce (`google_callbacks`, its primary key) and
/// its event are written in one transaction, so of two nodes that get the same callback at once, the second waits
/// for the first's nonce and records nothing.
extension PostgresPassStore {
    public func recordGoogleCallback(_ callback: GoogleCallbackRecord) async throws -> GoogleCallbackOutcome {
        try await write(notify: false) { connection in
            let found = try await connection.query(
                "SELECT pass_type_id, serial_number FROM google_objects WHERE object_id = \(callback.objectID) LIMIT 1", logger: logger)
            var key: PassKey?
            for try await (type, serial) in found.decode((String, String).self) {
                key = PassKey(passTypeIdentifier: type, serialNumber: serial)
            }
            guard let key else { return .unknownObject }
            let at = PassEvent.milliseconds(callback.at)
            let fresh =
                try await connection.rowCount(
                    "INSERT INTO google_callbacks (nonce, at) VALUES (\(callback.nonce), \(at)) ON CONFLICT (nonce) DO NOTHING RETURNING 1",
                    logger: logger) > 0
            guard fresh else { return .duplicate }
            let (type, serial) = (key.passTypeIdentifier, key.serialNumber)
            try await connection.query(
                """
                INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at)
                SELECT \(callback.kind.rawValue), pass_type_id, serial_number, template, \(at) FROM passes
                WHERE pass_type_id = \(type) AND serial_number = \(serial)
                """, logger: logger)
            return .recorded(key)
        }
    }
}
