import Foundation
import Logging
import PassmintStore
import PostgresNIO

/// The statements of the group commit (`changeTogether`): two round trips for the whole group, whatever its size,
/// both prepared. The first locks the passes and takes the transaction's tag (``LockPassesStatement``); the second
/// writes everything the changes owe (``WriteChangeGroupStatement``). Rows are locked in one order (the passes by key,
/// then their push rows, then their Google rows) so that two groups never wait crosswise.
extension PostgresPassStore {
    /// The passes of `keys` that exist, locked in key order, and the tag of the caller's transaction (see `nextTag`;
    /// nil when no pass exists: then nothing is written).
    static func lockPasses(
        _ connection: PostgresConnection, _ keys: Set<PassKey>, _ logger: Logger
    ) async throws -> (passes: [PassKey: StoredPass], tag: Int64?) {
        var found: [PassKey: StoredPass] = [:]
        var tag: Int64?
        for try await (pass, base) in try await connection.execute(LockPassesStatement(keys: keys.sorted()), logger: logger) {
            found[PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)] = pass
            guard let base else { throw tagBaseMissing }
            tag = base
        }
        return (found, tag)
    }

    /// Writes a group's new versions of locked passes with all they owe (``WriteChangeGroupStatement``); answers the
    /// devices registered for each pass of `locked`, each pass's in device order.
    static func writeGroup(
        _ connection: PostgresConnection, _ versions: [StoredPass], events: [PassEvent], locked: [PassKey], _ logger: Logger, now: Date
    ) async throws -> [PassKey: [DeviceRegistration]] {
        let statement = WriteChangeGroupStatement(versions: versions, events: events, locked: locked, now: now)
        var found: [PassKey: [DeviceRegistration]] = [:]
        for try await (key, registration) in try await connection.execute(statement, logger: logger) {
            found[key, default: []].append(registration)
        }
        return found
    }
}
