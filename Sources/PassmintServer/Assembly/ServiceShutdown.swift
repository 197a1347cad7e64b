import Logging
import PassmintPush
import ServiceLifecycle

/// Ends the service cleanly. It runs beside the server and is shut down right after it (ServiceLifecycle shuts
/// services down in reverse order), once the requests in flight are answered: it waits for the work started in the
/// background (pushes after a sign-up), then closes the APNs client, before the store's services stop.
struct ServiceShutdown: Service {
    let background: BackgroundWork
    let push: APNsPushSenders
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()  // returns at graceful shutdown; throws when cancelled, which ends it too
        await background.finish()
        try await push.shutdown()
        logger.info("passmint serve stopped")
    }
}
