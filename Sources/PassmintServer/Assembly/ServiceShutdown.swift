import Logging
import PassmintPush
import ServiceLifecycle

/// Ends the service cleanly. It runs beside the server and is shut down right after it (ServiceLifecycle shuts
/// services down in reverse order), once the requests in flight are answered and the push queue has made its last
/// round: it closes the Google, payment processor, merchant validation and APNs clients, before the store's services stop. Pushes still owed stay in the store.
struct ServiceShutdown: Service {
    let push: APNsPushSenders
    let google: GoogleWalletService?
    let payments: PaymentService?
    let merchantSessions: MerchantSessionService?
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()  // returns at graceful shutdown; throws when cancelled, which ends it too
        await google?.shutdown()
        await payments?.shutdown()
        await merchantSessions?.shutdown()
        try await push.shutdown()
        logger.info("passmint serve stopped")
    }
}
