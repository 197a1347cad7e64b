import Logging
import PassmintStore

/// What follows a new version of a pass once the store committed it (with the pushes it owes): its signed bytes are
/// kept for the devices that will fetch it (``SignedPassCache``), and the push queue is woken to tell them
/// (``PushQueue``). Nobody waits for APNs.
struct PassPublisher: Sendable {
    let signedPasses: SignedPassCache
    let pushQueue: PushQueue
    /// Woken when a change may owe a Google Wallet patch (the store knows whether it does).
    let googleUpdates: GoogleUpdateQueue?

    /// Keeps `archive` (the new version, signed while the store committed) and starts the pushes the change owes.
    func publish(_ change: PassChange, signed archive: [UInt8]) {
        signedPasses.remember(archive, for: change.pass)
        publish(change)
    }

    /// Starts the pushes the change owes; the new version is signed when a device or a link asks for it (bulk changes).
    func publish(_ change: PassChange) {
        if change.changed && !change.registrations.isEmpty { pushQueue.wake() }
        if change.changed { googleUpdates?.wake() }
    }
}
