import Foundation

/// Google Wallet's save/delete callbacks on SQLite: a callback's nonce (`google_callbacks`) and its event are written
/// in one transaction of the single writer, so a callback Google sends again records nothing more.
extension SQLitePassStore {
    public func recordGoogleCallback(_ callback: GoogleCallbackRecord) async throws -> GoogleCallbackOutcome {
        try await writer.write { db in
            var key: PassKey?
            try db.query("SELECT pass_type_id, serial_number FROM google_objects WHERE object_id = ? LIMIT 1", [.text(callback.objectID)]) {
                key = PassKey(passTypeIdentifier: $0.text(0) ?? "", serialNumber: $0.text(1) ?? "")
            }
            guard let key else { return .unknownObject }
            try db.query(
                "INSERT INTO google_callbacks (nonce, at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING",
                [.text(callback.nonce), .integer(PassEvent.milliseconds(callback.at))])
            guard db.changes > 0 else { return .duplicate }
            try Self.insertPassEvent(db, callback.kind, key.passTypeIdentifier, key.serialNumber, at: callback.at, deviceHash: nil)
            return .recorded(key)
        }
    }
}
