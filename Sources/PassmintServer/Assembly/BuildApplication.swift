import Foundation
public import Hummingbird
public import Logging
import NIOCore
import Passmint
import PassmintPush
import PassmintStore
public import ServiceLifecycle

/// Builds the whole service from its configuration: opens the store (``openPassStore(url:logger:clock:)``) and the APNs
/// client, assembles the ``ServiceCore``, mounts the routes (and `DeviceFastPath`), and runs beside the server what
/// the store needs (the PostgreSQL client and change feed) and what ends it cleanly (`ServiceShutdown`). Migrations
/// run before the server starts. `onListening` is called with the port the server listens on, once it does (with
/// `port` 0 in the configuration, the free port the system gave).
public func buildApplication(
    configuration: ServerConfiguration, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    var logger = Logger(label: "passmint")
    logger.logLevel = configuration.logLevel
    let opened = try openPassStore(configuration.database, logger: logger)
    let push = try APNsPushSenders(configuration: configuration, logger: logger)
    let core = ServiceCore(configuration: configuration, store: opened.store, push: push, logger: logger)
    if configuration.allowHTTP, configuration.publicURL.lowercased().hasPrefix("http:") {
        logger.warning("serving passes with an http webServiceURL: only devices with Allow HTTP Services turned on will register")
    }
    if configuration.linkSecret == nil {
        logger.notice("no PASSMINT_LINK_SECRET: passes get no public download links, and /download and /add answer 404")
    }
    if configuration.apiKey == nil {
        logger.warning("no API key (PASSMINT_API_KEY, or the variable --api-key-env names): the issuing API answers 401 to everything")
    }
    logger.info(
        "passmint serve",
        metadata: [
            "version": "\(PassmintVersion.current)", "address": "\(configuration.host):\(configuration.port)",
            "publicURL": "\(configuration.publicURL)", "configFile": "\(configuration.configFile ?? "none")",
            "database": "\(opened.name)", "apns": "\(push.authenticationDescription) \(configuration.apns.endpoint.absoluteString)",
        ])
    // Shut down in reverse order: the server first, then the push queue's last round (added by buildApplication(core:)),
    // then ServiceShutdown, then the change feed and the client.
    let shutdown = ServiceShutdown(
        push: push, google: core.google, payments: core.payments, merchantSessions: core.merchantSessions, logger: logger)
    let services = opened.services + [opened.changeFeed].compactMap { $0 } + [shutdown]
    // --self-check runs beside the server once it listens: never before, and nothing waits for it.
    let selfCheck = configuration.selfCheck.map {
        ServiceSelfCheck(pass: $0, configuration: configuration, store: opened.store, mark: core.selfCheckMark, logger: logger)
    }
    return buildApplication(core: core, services: services, logger: logger) { port in
        await onListening(port)
        if let selfCheck { Task { await selfCheck.run(port: port) } }
    }
}

/// The application around an assembled core: its routes, the fast path when the configuration asks for it, the bind
/// address, `services` to run beside the server, and the core's push queue after them (so it stops right after the
/// server). Tests build a core with their own store and push sender, and bind port 0: `onListening` gets the port.
public func buildApplication(
    core: ServiceCore, services: [any Service] = [], logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let configuration = core.configuration
    let reads = core.deviceReads
    let prefix = configuration.pathPrefix
    let fastPath = configuration.fastPath
    var limits = configuration.connections
    limits.maximumConnections = FileDescriptorLimit.raise(for: limits.maximumConnections)
    if limits.maximumConnections < configuration.connections.maximumConnections {
        logger.warning(
            "the open-file limit allows fewer connections than asked: raise it (ulimit -n, or LimitNOFILE= in systemd)",
            metadata: ["asked": "\(configuration.connections.maximumConnections)", "allowed": "\(limits.maximumConnections)"])
    }
    let connections = ConnectionRegistry(limits: limits, uncapped: configuration.trustedProxies, logger: logger)
    var app = Application(
        router: buildRouter(core: core),
        server: ServiceHTTPChannel.server(idleTimeout: configuration.connections.idleTimeout) {
            [ConnectionGuard(registry: connections)] + (fastPath ? [DeviceFastPath(reads: reads, pathPrefix: prefix)] : [])
        },
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "passmint"),
        services: services + [core.pushQueue, core.jobs, core.eventPruner, core.webhookDeliverer, core.reachability]
            + (core.googleUpdates.map { [$0 as any Service] } ?? []),
        onServerRunning: { [port = configuration.port] channel in await onListening(channel.localAddress?.port ?? port) },
        logger: logger)
    app.beforeServerStarts { [store = core.store, ready = core.storeReady, templates = core.templates] in
        // SIGTERM while the store is still out of reach (PostgreSQL down) stops the start-up instead of waiting.
        do {
            try await cancelWhenGracefulShutdown { try await store.migrate() }
            // Each template's folder as it is now is stored as a version for the passes issued from now on.
            for (name, adopted) in try await templates.start() where adopted > 0 {
                logger.notice(
                    "passes given the version of their template the folder holds",
                    metadata: ["template": "\(name)", "passes": "\(adopted)"])
            }
        } catch  where Task.isShuttingDownGracefully || Task.isCancelled {
            throw CancellationError()
        }
        ready.open()
    }
    return app
}

/// The service's router: Apple's web service under the public URL's path, the issuing API under `/api/v1` (behind
/// the API key), and `/health`.
package func buildRouter(core: ServiceCore) -> Router<ServiceRequestContext> {
    let router = Router(context: ServiceRequestContext.self)
    router.add(middleware: NoSniffMiddleware())
    router.add(middleware: RequestMetricsMiddleware(metrics: core.metrics))
    router.add(middleware: StoreOutageMiddleware(reachability: core.reachability))
    HealthRoute(reachability: core.reachability).register(on: router)
    MetricsRoute(core: core).register(on: router)
    AppleWebServiceRoutes(core: core).register(on: router)
    // The issuer's API: its refusals as the error envelope, one API-key check in front of every route under /api/v1,
    // then Idempotency-Key on its POSTs. Its description needs no key.
    OpenAPIRoute().register(on: router)
    let api = router.group("/api/v1").add(middleware: APIErrorMiddleware(bodyLimit: core.configuration.maxBodySize))
        .add(middleware: APIKeyMiddleware(apiKey: core.configuration.apiKey))
        .add(middleware: IdempotencyMiddleware(service: core.idempotency))
    IssuingAPIRoutes(core: core).register(on: api)
    PaymentRoutes(core: core).register(on: api)
    PreviewRoutes(core: core).register(on: api)
    JobRoutes(core: core).register(on: api)
    TemplateRoutes(core: core).register(on: api)
    StatsRoutes(core: core).register(on: api)
    WebhookRoutes(core: core).register(on: api)
    DashboardRoutes(core: core).register(on: router, api: api)
    SharingRoutes(core: core).register(on: router)
    MerchantSessionRoutes(core: core).register(on: router)
    GoogleImageRoutes(core: core).register(on: router)
    GoogleCallbackRoutes(core: core).register(on: router)
    core.metrics.registerRoutes(router.routes.map { (route: $0.path.description, method: $0.method.rawValue) })
    return router
}
