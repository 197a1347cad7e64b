import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Passmint
import PassmintGoogle
import PassmintServer
import PassmintStore
import PassmintTestSupport

/// A Google stand-in (real HTTP on a free port) trusting a service account made at test time, and the service
/// configured to issue for it.
struct GoogleServeHarness: Sendable {
    static let issuerID = "3388000000022222222"
    /// Where the service serves the images Google fetches.
    static let imagePrefix = ServiceHarness.publicURL + "/google/images/"

    let folder: URL
    let account: TestServiceAccount
    let standIn: GoogleWalletStandIn
    let keyFile: URL
    let clock: ManualClock
    /// Google's side of the save/delete callbacks: its root key is in ``callbackKeysFile``.
    let signer: GoogleCallbackSigner
    /// The signer's root key in Google's published format, given to the service when it takes callbacks.
    let callbackKeysFile: URL

    /// Makes the account and starts the stand-in (both block: on a thread of their own).
    static func make() async throws -> GoogleServeHarness {
        try await offPool {
            Result {
                let folder = TestEnvironment.temporaryFolder("google-serve")
                let account = try TestServiceAccount(folder: folder)
                let clock = ManualClock()
                let standIn = try GoogleWalletStandIn(
                    account: account, issuerID: issuerID, imagePrefix: imagePrefix, now: clock.today)
                let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
                let signer = GoogleCallbackSigner(intermediateExpiration: clock.date.addingTimeInterval(86_400))
                let callbackKeysFile = folder.appendingPathComponent("google-callback-keys.json")
                try signer.writeKeys(to: callbackKeysFile)
                return GoogleServeHarness(
                    folder: folder, account: account, standIn: standIn, keyFile: keyFile, clock: clock, signer: signer,
                    callbackKeysFile: callbackKeysFile)
            }
        }.get()
    }

    private init(
        folder: URL, account: TestServiceAccount, standIn: GoogleWalletStandIn, keyFile: URL, clock: ManualClock,
        signer: GoogleCallbackSigner, callbackKeysFile: URL
    ) {
        self.folder = folder
        self.account = account
        self.standIn = standIn
        self.keyFile = keyFile
        self.clock = clock
        self.signer = signer
        self.callbackKeysFile = callbackKeysFile
    }

    /// Runs `body` with a router-level client of a service on a store of `kind` that issues for the stand-in.
    /// With `callbacks`, the service takes Google's save/delete callbacks (``callbackKeysFile``); with `webhooks`, it
    /// delivers webhooks under that policy.
    static func withService(
        _ kind: StoreKind, callbacks: Bool = false, webhooks: WebhookPolicy? = nil,
        _ body: @escaping @Sendable (GoogleServeHarness, any ServiceClient) async throws -> Void
    ) async throws {
        try await withService(kind, callbacks: callbacks, webhooks: webhooks) { harness, _, client in try await body(harness, client) }
    }

    /// ``withService(_:callbacks:webhooks:_:)`` with the service's core.
    static func withService(
        _ kind: StoreKind, callbacks: Bool = false, webhooks: WebhookPolicy? = nil,
        _ body: @escaping @Sendable (GoogleServeHarness, ServiceCore, any ServiceClient) async throws -> Void
    ) async throws {
        let harness = try await make()
        do {
            try await withStore(kind, clock: harness.clock) { store in
                try await harness.withCore(on: store, callbacks: callbacks, webhooks: webhooks) { core in
                    try await buildApplication(core: core, logger: .init(label: "google")).serviceTest(.router) {
                        try await body(harness, core, $0)
                    }
                }
            }
            await harness.shutdown()
        } catch {
            await harness.shutdown()
            throw error
        }
    }

    /// A service core on `store` that issues for the stand-in, on the harness's clock (the store's too), from the
    /// repository's templates or those in `templatesFolder`.
    func core(
        on store: any PassStore, callbacks: Bool = false, webhooks: WebhookPolicy? = nil, templatesFolder: String? = nil
    ) throws -> ServiceCore {
        var configuration = try ServiceHarness.configuration()
        configuration.linkSecret = PassLinksTests.secret
        if let templatesFolder { configuration.templatesFolder = templatesFolder }
        configuration.google = GoogleConfiguration(
            key: try ServiceAccountKey(contentsOf: keyFile.path), issuerID: Self.issuerID, apiURL: standIn.url,
            callbackKeysFile: callbacks ? callbackKeysFile.path : nil)
        if let webhooks { configuration.webhooks = webhooks }
        return ServiceCore(
            configuration: configuration, store: store, push: RecordingPushSender(), logger: ringingLogger(label: "google"),
            clock: clock.today)
    }

    /// Runs `body` with ``core(on:)``, closing its Google client after (a client left open fails the test run).
    func withCore<T>(
        on store: any PassStore, callbacks: Bool = false, webhooks: WebhookPolicy? = nil, templatesFolder: String? = nil,
        _ body: (ServiceCore) async throws -> T
    ) async throws -> T {
        let core = try core(on: store, callbacks: callbacks, webhooks: webhooks, templatesFolder: templatesFolder)
        do {
            let result = try await body(core)
            await core.google?.shutdown()
            return result
        } catch {
            await core.google?.shutdown()
            throw error
        }
    }

    func shutdown() async {
        await offPool { [standIn] in standIn.shutdown() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The claims of a save link's JWT (its signature is checked by the PassmintGoogle tests, with PyJWT).
    static func claims(ofSaveLink link: String) throws -> JSONValue {
        let token = String(link.dropFirst(GoogleSaveLink.base.count))
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { throw CocoaError(.coderInvalidValue) }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw CocoaError(.coderInvalidValue) }
        return try JSONParser.value(Array(data))
    }
}
