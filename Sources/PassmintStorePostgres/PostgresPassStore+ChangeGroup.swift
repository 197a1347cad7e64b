import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// The group commit of pass changes on PostgreSQL. Changes asked for at once on one node are written together: one
/// transaction, one tag (see `nextTag`), one notification and one WAL flush for all of them, in four round trips
/// (`BEGIN`, the lock, the write, `COMMIT`; one more per image stored) whatever the group's size. Each still writes
/// what it owes as it would alone, in that transaction: its version, its images, its `updated` event (and the webhook
/// deliveries its trigger owes), a push to each of its devices and its Google patch. A change refused (`.stale`) or
/// naming no pass leaves the others as they are. A change written alone is a group of one.
extension PostgresPassStore {
    public func change(passTypeIdentifier: String, serialNumber: String, _ edit: PassEdit, basedOn: Int64?) async throws -> PassChange? {
        let key = PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        let request = PostgresChangeQueue.Request(key: key, edit: edit, basedOn: basedOn)
        return try await withCheckedThrowingContinuation { answer in
            if changes.enqueue(PostgresChangeQueue.Waiting(request: request, answer: answer)) {
                Task { await self.writeChanges() }
            }
        }
    }

    /// A writer: the waiting changes, a transaction at a time, until none waits.
    private func writeChanges() async {
        while let batch = changes.next() {
            let results = await apply(batch.map(\.request))
            for (waiting, result) in zip(batch, results) { waiting.answer.resume(with: result) }
        }
    }

    /// Writes `requests` together; when that transaction fails before its commit (a deadlock, a lost connection),
    /// each alone, so that each caller hears its own outcome.
    private func apply(_ requests: [PostgresChangeQueue.Request]) async -> [Result<PassChange?, any Error>] {
        if requests.count > 1 {
            do {
                return try await changeTogether(requests)
            } catch let error as PostgresTransactionError where error.commitError != nil {
                return requests.map { _ in .failure(error) }  // committed or not, as unknown as one change's would be
            } catch {
                logger.warning("a group of changes rolled back; writing them one at a time", metadata: ["error": "\(error)"])
            }
        }
        var results: [Result<PassChange?, any Error>] = []
        for request in requests {
            do {
                results += try await changeTogether([request])
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// One transaction for `requests`, applied in their order (a pass changed twice sees its first change).
    private func changeTogether(_ requests: [PostgresChangeQueue.Request]) async throws -> [Result<PassChange?, any Error>] {
        try await write { connection in
            let (found, tag) = try await Self.lockPasses(connection, Set(requests.map(\.key)), logger)
            var current = found
            let now = clock()
            var outcomes: [Result<(pass: StoredPass, changed: Bool)?, any Error>] = []
            var written: [PassKey: StoredPass] = [:]
            var events: [PassEvent] = []
            var images: [String: StoredImage] = [:]
            for request in requests {
                guard let pass = current[request.key], let tag else {
                    outcomes.append(.success(nil))
                    continue
                }
                do {
                    guard let edited = try request.edit.applied(to: pass, basedOn: request.basedOn, now: now) else {
                        outcomes.append(.success((pass, false)))
                        continue
                    }
                    let version = edited.nextVersion(tag: tag, now: now)
                    (current[request.key], written[request.key]) = (version, version)
                    for image in request.edit.images { images[image.sha256] = image }
                    events.append(
                        PassEvent(
                            kind: .updated, passTypeIdentifier: version.passTypeIdentifier, serialNumber: version.serialNumber,
                            template: version.template, at: now))
                    outcomes.append(.success((version, true)))
                } catch {
                    outcomes.append(.failure(error))
                }
            }
            guard !current.isEmpty else { return requests.map { _ in .success(nil) } }
            try await self.storeImages(connection, Array(images.values), logger)  // in the transaction of the passes that name them
            let registrations = try await Self.writeGroup(
                connection, Array(written.values), events: events, locked: Array(current.keys), logger, now: now)
            return outcomes.map { outcome in
                outcome.map { found in
                    found.map { found in
                        let key = PassKey(passTypeIdentifier: found.pass.passTypeIdentifier, serialNumber: found.pass.serialNumber)
                        return PassChange(pass: found.pass, changed: found.changed, registrations: registrations[key] ?? [])
                    }
                }
            }
        }
    }
}
