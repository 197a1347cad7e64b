public import Foundation
public import Logging
import Passmint
public import PassmintPush
public import PassmintStore

/// The service's parts, each with one job, built from a configuration, a store and a push sender. The routes call
/// these and nothing else; each can be used and tested on its own.
public struct ServiceCore: Sendable {
    package let configuration: ServerConfiguration
    package let templates: TemplateCatalog
    package let issuing: IssuingService
    package let updates: UpdateService
    package let personalization: PersonalizationService
    package let registrations: RegistrationService
    package let deviceReads: DeviceReadCache
    package let downloads: LatestPassService
    package let lookup: PassLookupService
    /// Preview pages of stored passes and templates.
    package let previews: PreviewService
    package let sharing: SharingService
    package let deviceLogs: DeviceLogBook
    /// Marks `serve --self-check`'s own requests, which leave no trace in the events, statistics and device logs.
    package let selfCheckMark = SelfCheckMark()
    /// Delivers the pushes changes owe, in the background (run it as a service: ``buildApplication(core:services:logger:onListening:)`` does).
    package let pushQueue: PushQueue
    /// Opens once the store is migrated (``buildApplication(core:services:logger:onListening:)`` opens it before the server
    /// starts); the push queue and the jobs wait for it.
    package let storeReady = StoreReadiness()
    /// Whether the store answers now: `/ready`, and the 503s that spare requests the wait for a store out of reach
    /// (run it as a service too).
    package let reachability: StoreReachability
    /// What `GET /metrics` shows.
    package let metrics: ServiceMetrics
    /// Bulk changes and template-wide changes, in the background (run it as a service too).
    package let jobs: UpdateJobService
    /// Keeps events for the configured retention (run it as a service too).
    package let eventPruner: EventPruner
    /// Install and removal statistics.
    package let stats: StatsService
    /// Registers, lists and removes webhooks.
    package let webhooks: WebhookService
    /// Delivers what events owe webhooks, in the background (run it as a service too).
    package let webhookDeliverer: WebhookDeliverer
    /// Who may open the statistics dashboard: the API key, or a login link it made.
    package let dashboardLogin: DashboardLogin
    /// Google Wallet save links, when the configuration names a Google account.
    package let google: GoogleWalletService?
    /// Patches the Google objects changes owe, in the background (run it as a service too), when there is a Google account.
    package let googleUpdates: GoogleUpdateQueue?
    /// Verifies and records Google's save/delete callbacks, when the Google account has callback keys.
    package let googleCallbacks: GoogleCallbackService?
    /// The first answers to the API's POSTs sent with an `Idempotency-Key`.
    package let idempotency: IdempotencyService
    /// Apple Pay payments that issue a pass, when the configuration holds merchant keys.
    package let payments: PaymentService?
    /// Merchant validation for Apple Pay on the web, when the configuration holds a Merchant Identity.
    package let merchantSessions: MerchantSessionService?
    /// For the assembly (migrations); the routes reach the store only through the services above.
    let store: any PassStore

    /// `clock` is the time the push queue schedules retries from: the wall clock, or a test's (the store's too).
    public init(
        configuration: ServerConfiguration, store: any PassStore, push: any PushSender, logger: Logger,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.store = store
        let templates = TemplateCatalog(
            folder: configuration.templatesFolder, orderFolder: configuration.orderTemplatesFolder, store: store)
        let lint = LintOptions(allowHTTPWebService: configuration.allowHTTP)
        let builder = PassBuilder(identities: configuration.identities, options: .init(lint: lint))
        let images = PassImageLibrary(store: store, cacheBytes: configuration.jobLimits.imageCacheBytes)
        let metrics = ServiceMetrics()
        metrics.registerAtStart()
        let renderer = PassRenderer(
            builder: builder, templates: templates, images: images, webServiceURL: configuration.publicURL, metrics: metrics,
            clock: clock)
        let signedPasses = SignedPassCache()
        let pushQueue = PushQueue(
            store: store, sender: push, logger: logger, lease: configuration.pushLease, ready: storeReady, clock: clock)
        self.templates = templates
        issuing = IssuingService(templates: templates, renderer: renderer, store: store, signedPasses: signedPasses, logger: logger)
        let google = configuration.google.map {
            GoogleWalletService(configuration: $0, publicURL: configuration.publicURL, renderer: renderer, store: store, now: clock)
        }
        let ready = storeReady
        let googleUpdates = google.map {
            GoogleUpdateQueue(store: store, google: $0, logger: logger, lease: configuration.pushLease, ready: ready, clock: clock)
        }
        self.google = google
        self.googleUpdates = googleUpdates
        googleCallbacks = configuration.google.flatMap { google in
            google.callbackKeysFile.map { GoogleCallbackService(keysFile: $0, issuerID: google.issuerID, store: store, clock: clock) }
        }
        let publisher = PassPublisher(signedPasses: signedPasses, pushQueue: pushQueue, googleUpdates: googleUpdates)
        updates = UpdateService(store: store, renderer: renderer, publisher: publisher, logger: logger)
        personalization = PersonalizationService(store: store, renderer: renderer, publisher: publisher, logger: logger)
        registrations = RegistrationService(store: store, metrics: metrics)
        let links = configuration.linkSecret.map {
            PassLinks(secret: $0, publicURL: configuration.publicURL, lifetime: configuration.linkLifetime)
        }
        self.metrics = metrics
        deviceReads = DeviceReadCache(store: store)
        let events = PassEventLog(store: store, clock: clock)
        downloads = LatestPassService(renderer: renderer, signedPasses: signedPasses, events: events)
        lookup = PassLookupService(store: store, google: configuration.google != nil)
        previews = PreviewService(store: store, renderer: renderer, templates: templates)
        sharing = SharingService(
            links: links, store: store, renderer: renderer, downloads: downloads, events: events,
            google: google)
        deviceLogs = DeviceLogBook(limit: configuration.deviceLogLimit, logger: logger)
        self.pushQueue = pushQueue
        stats = StatsService(store: store, clock: clock)
        webhooks = WebhookService(store: store, policy: configuration.webhooks, clock: clock)
        webhookDeliverer = WebhookDeliverer(
            store: store, policy: configuration.webhooks, logger: logger, ready: storeReady, clock: clock)
        dashboardLogin = DashboardLogin(apiKey: configuration.apiKey, lifetime: .seconds(12 * 3600), clock: clock)
        eventPruner = EventPruner(
            store: store, retention: configuration.eventRetention, ready: storeReady, logger: logger, clock: clock)
        idempotency = IdempotencyService(store: store, logger: logger, clock: clock)
        merchantSessions = configuration.merchantIdentity.map { MerchantSessionService(identity: $0, logger: logger) }
        let issuing = issuing
        payments = configuration.applePay.map {
            PaymentService(configuration: $0, issuing: issuing, store: store, logger: logger, clock: clock)
        }
        reachability = StoreReachability(store: store, logger: logger, clock: clock)
        jobs = UpdateJobService(
            folder: JobFolder(path: configuration.jobsFolder, freeSpace: configuration.jobLimits.freeSpace), updates: updates,
            templates: templates, store: store, logger: logger, ready: storeReady, limits: configuration.jobLimits,
            concurrency: configuration.jobLimits.linesInFlight, lease: configuration.jobLease,
            sync: (store as? any PublishedTemplateStore).map {
                TemplateSync(store: $0, templates: templates, logger: logger)
            })
    }
}
