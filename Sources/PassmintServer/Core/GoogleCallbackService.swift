import Foundation
import HTTPTypes
import PassmintGoogle
package import PassmintStore
import Synchronization

/// Google Wallet's save/delete callbacks (`POST <public-url>/google/callbacks`): each is verified against Google's
/// root signing keys (`GoogleCallbackVerifier`, the issuer id as recipient) and recorded as `google.saved` or
/// `google.removed` for the pass whose object it names, once per nonce (`PassStore.recordGoogleCallback(_:)`). The
/// keys file is read again when it changes, so an operator refreshes Google's keys without a restart.
package final class GoogleCallbackService: Sendable {
    let keysFile: String
    let issuerID: String
    let store: any PassStore
    let clock: @Sendable () -> Date
    /// The keys, and the file's modification date they were read at.
    private let loaded = Mutex<(modified: Date?, keys: GoogleSigningKeys?)>((nil, nil))

    init(keysFile: String, issuerID: String, store: any PassStore, clock: @escaping @Sendable () -> Date) {
        self.keysFile = keysFile
        self.issuerID = issuerID
        self.store = store
        self.clock = clock
    }

    /// Where callbacks are verified, one at a time.
    private static let verifying = DispatchQueue(label: "passmint.google-callbacks")

    /// Where Google posts callbacks: `<public-url>/google/callbacks`.
    package static func url(publicURL: String) -> String {
        (publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL) + "/google/callbacks"
    }

    /// Verifies `body` and records its event; what became of it. Refused (400 not a callback, 401 unverified, 404 no
    /// pass has its object, 503 no keys to verify with) with nothing recorded.
    package func receive(_ body: [UInt8]) async throws -> GoogleCallbackOutcome {
        let now = clock()
        let verifier = GoogleCallbackVerifier(keys: try keys(), recipientID: issuerID)
        // Verified one at a time on a queue of their own: a flood of posted callbacks (anyone can post) takes at most
        // one core, never the cooperative threads that answer devices.
        let verified: Result<GoogleCallback, GoogleWalletError> = await withCheckedContinuation { continuation in
            Self.verifying.async {
                continuation.resume(returning: Result { () throws(GoogleWalletError) in try verifier.verify(body, now: now) })
            }
        }
        let callback: GoogleCallback
        switch verified {
        case .success(let verifiedCallback): callback = verifiedCallback
        case .failure(let error):
            throw ServiceFailure(
                error.code == .malformedCallback ? .badRequest : .unauthorized, "Google callback refused: \(error.message)")
        }
        let record = GoogleCallbackRecord(
            nonce: callback.nonce, objectID: callback.objectID, kind: callback.event == .save ? .googleSaved : .googleRemoved, at: now)
        let outcome = try await store.recordGoogleCallback(record)
        if outcome == .unknownObject {
            throw ServiceFailure(.notFound, "Google callback for object \(callback.objectID): no pass of this service has that object")
        }
        return outcome
    }

    /// The keys of the file as it is now: read again when its modification date changed. A file that no longer reads
    /// keeps the keys read before (it was checked at start); 503 when none were (Google tries again later).
    func keys() throws(ServiceFailure) -> GoogleSigningKeys {
        let modified = (try? FileManager.default.attributesOfItem(atPath: keysFile))?[.modificationDate] as? Date
        if let current = loaded.withLock({ $0.modified == modified ? $0.keys : nil }) { return current }
        if let fresh = try? GoogleSigningKeys(contentsOf: keysFile) {
            loaded.withLock { $0 = (modified, fresh) }
            return fresh
        }
        guard let kept = loaded.withLock({ $0.keys }) else {
            // The answer goes to whoever posted: it names no path (the operator sees the setting's file at start).
            throw ServiceFailure(.serviceUnavailable, "Google callback not taken: the service cannot read Google's signing keys now")
        }
        return kept
    }
}
