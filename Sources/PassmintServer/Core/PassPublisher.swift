import Logging
import PassmintStore

/// What follows a new version of a pass once the store committed it: its signed bytes are kept for the devices that
/// will fetch it (``SignedPassCache``), and the devices registered for it are told (``PassPusher``), while the request
/// waits or in the background.
struct PassPublisher: Sendable {
    let signedPasses: SignedPassCache
    let pusher: PassPusher
    let background: BackgroundWork
    let logger: Logger

    /// Keeps `archive` (the new version, signed while the store committed) and pushes the change.
    func publish(_ change: PassChange, signed archive: [UInt8]) async throws -> PushSummary {
        signedPasses.remember(archive, for: change.pass)
        return try await pusher.push(change)
    }

    /// Keeps `archive` and pushes the change without making the caller wait for APNs.
    func publishInBackground(_ change: PassChange, signed archive: [UInt8]) {
        signedPasses.remember(archive, for: change.pass)
        background.run { [pusher, logger] in
            do {
                _ = try await pusher.push(change)
            } catch {
                let metadata: Logger.Metadata = ["serialNumber": "\(change.pass.serialNumber)", "error": "\(error)"]
                logger.error("push in the background failed", metadata: metadata)
            }
        }
    }
}
