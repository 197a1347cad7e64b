import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOSSL
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the pass web service: Apple's update protocol, APNs pushes and the issuing API.",
        discussion: """
            Devices talk to <public-url>/v1/… (Apple's protocol, ApplePass or AndroidPass tokens); your servers talk to \
            /api/v1/passes with the API key as a bearer token. Every option can also come from the environment: \
            PASSMINT_HOST, PASSMINT_PORT, PASSMINT_PUBLIC_URL, PASSMINT_DATABASE_URL, PASSMINT_TEMPLATES, PASSMINT_CERTIFICATES, \
            PASSMINT_APNS_URL, PASSMINT_APNS_CA, PASSMINT_APNS_KEY, PASSMINT_APNS_KEY_ID, PASSMINT_APNS_TEAM_ID, \
            PASSMINT_FAST_PATH=0 (as --no-fast-path), PASSMINT_ALLOW_HTTP=1 (as --allow-http); a command-line option wins over \
            its variable.

            APNs: by default pushes authenticate with the Pass Type ID certificate (Apple's documented way). With --apns-key \
            AuthKey_<KEYID>.p8 they carry an ES256 provider token instead; the key must belong to the pass type ID's team.

            --database-url: a SQLite file path (default passmint.sqlite, WAL mode) or postgres://user:password@host:port/db. \
            Migrations run at start-up. SIGTERM or SIGINT stop the service after the requests in flight.
            """
    )

    @Option(help: "Address to listen on.") var host: String?
    @Option(help: "Port to listen on.") var port: Int?
    @Option(help: ArgumentHelp("Public base URL written into passes as webServiceURL; its path is where Apple's endpoints are mounted.", valueName: "url"))
    var publicURL: String?
    @Option(help: ArgumentHelp("SQLite file or postgres:// URL.", valueName: "url")) var databaseURL: String?
    @Option(help: ArgumentHelp("Folder with the templates the issuing API names.", valueName: "dir")) var templates: String?
    @Option(help: ArgumentHelp("Environment variable holding the issuing API's bearer key (at least 16 characters).", valueName: "VAR"))
    var apiKeyEnv = "PASSMINT_API_KEY"
    @Option(help: ArgumentHelp("APNs endpoint (default: Apple's production service).", valueName: "url")) var apnsURL: String?
    @Option(help: ArgumentHelp("Extra root certificate (PEM) to trust for the APNs endpoint, for a test server.", valueName: "file")) var apnsCA: String?
    @Option(help: ArgumentHelp("APNs auth key (.p8): push with provider tokens instead of the certificate.", valueName: "file")) var apnsKey: String?
    @Option(help: ArgumentHelp("The .p8 key's identifier (default: from the file name AuthKey_<KEYID>.p8).", valueName: "id")) var apnsKeyId: String?
    @Option(help: ArgumentHelp("The team of the .p8 key (default: the certificate's team identifier).", valueName: "id")) var apnsTeamId: String?
    @Flag(help: ArgumentHelp(
        "Accept an http --public-url, for development devices with Settings › Developer › Allow HTTP Services turned on; passes issued then carry an http webServiceURL, which other devices refuse."))
    var allowHTTP = false
    @Flag(help: "Send every request through the router (no answers from memory on the event loop), e.g. to compare speeds.")
    var noFastPath = false
    @OptionGroup(title: "Signing") var signing: SigningOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        BatchRunner.tuneAllocator()  // every issued pass allocates a ~150 KB archive: keep those off mmap
        var logger = Logger(label: "passmint")
        logger.logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        guard let publicURL = publicURL ?? environment["PASSMINT_PUBLIC_URL"], URL(string: publicURL)?.host != nil else {
            throw ValidationError("give --public-url (or PASSMINT_PUBLIC_URL), e.g. https://passes.example.com/wallet")
        }
        let allowHTTP = allowHTTP || environment["PASSMINT_ALLOW_HTTP"] == "1"
        switch URL(string: publicURL)?.scheme?.lowercased() {
        case "https": break
        case "http" where allowHTTP:
            logger.warning("serving passes with an http webServiceURL: only devices with Allow HTTP Services turned on will register")
        case "http":
            throw ValidationError("""
                --public-url \(publicURL) uses http, and Wallet talks only to https web services (lint refuses such passes). \
                Give the https URL your TLS proxy serves, or add --allow-http for development devices with \
                Settings › Developer › Allow HTTP Services turned on.
                """)
        default:
            throw ValidationError("--public-url \(publicURL) must be an https URL, e.g. https://passes.example.com/wallet")
        }
        let apiKey = environment[apiKeyEnv]
        if let apiKey, apiKey.count < 16 { throw ValidationError("the API key in \(apiKeyEnv) must have at least 16 characters") }
        if apiKey == nil { logger.warning("no API key in \(apiKeyEnv): the issuing API answers 401 to everything") }
        let settings = ServerSettings(
            host: host ?? environment["PASSMINT_HOST"] ?? "127.0.0.1", port: port ?? environment["PASSMINT_PORT"].flatMap(Int.init) ?? 8080,
            publicURL: publicURL, templatesFolder: templates ?? environment["PASSMINT_TEMPLATES"] ?? "PassTemplates", apiKey: apiKey,
            fastPath: !noFastPath && environment["PASSMINT_FAST_PATH"] != "0")

        let identity = try signing.loadIdentity()
        let endpoint = URL(string: apnsURL ?? environment["PASSMINT_APNS_URL"] ?? APNsPushSender.production.absoluteString)!
        let roots = try (apnsCA ?? environment["PASSMINT_APNS_CA"]).map { try NIOSSLCertificate.fromPEMFile($0) }
        var providerToken: APNsProviderToken?
        if let keyPath = apnsKey ?? environment["PASSMINT_APNS_KEY"] {
            guard let team = apnsTeamId ?? environment["PASSMINT_APNS_TEAM_ID"] ?? identity.certificate.organizationalUnit else {
                throw ValidationError("give --apns-team-id: the certificate names no team")
            }
            providerToken = try APNsProviderToken(p8Path: keyPath, keyIdentifier: apnsKeyId ?? environment["PASSMINT_APNS_KEY_ID"], teamIdentifier: team)
            _ = try providerToken?.token()  // a key that cannot sign fails now, not at the first push
        }
        let push = try APNsPushSender(identity: identity, providerToken: providerToken, endpoint: endpoint, trustRoots: roots, logger: logger)

        let database = databaseURL ?? environment["PASSMINT_DATABASE_URL"] ?? "passmint.sqlite"
        let store: any PassStore
        var services: [any Service] = []
        if database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") {
            let client = try PostgresPassStore.client(url: database, logger: logger)
            let postgres = PostgresPassStore(client: client, logger: logger)
            services.append(client)
            services.append(ChangeFeedService(store: postgres))
            store = postgres
        } else {
            store = try SQLitePassStore(path: database, logger: logger)
        }
        let builder = PassBuilder(identity: identity, options: .init(lint: LintOptions(allowHTTPWebService: allowHTTP)))
        let service = PassService(store: store, push: push, builder: builder, settings: settings, logger: logger)
        let apnsAuthentication = providerToken.map { "token \($0.keyIdentifier)/\($0.teamIdentifier)" } ?? "certificate"
        logger.info("passmint serve", metadata: [
            "address": "\(settings.host):\(settings.port)", "publicURL": "\(publicURL)",
            "database": "\(database.hasPrefix("postgres") ? "postgres" : database)", "apns": "\(apnsAuthentication) \(endpoint.absoluteString)",
        ])
        try await buildApplication(service: service, services: services, logger: logger).runService()
        // The server has answered the requests in flight; pushes started in the background end before the client closes.
        await service.finishBackgroundWork()
        try await push.shutdown()
        logger.info("passmint serve stopped")
    }
}

/// Runs the PostgreSQL store's change feed beside the server, so that each node of a fleet caches device reads.
struct ChangeFeedService: Service {
    let store: PostgresPassStore
    func run() async throws {
        await cancelWhenGracefulShutdown { await store.runChangeFeed() }
    }
}
