import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Passmint
import PassmintBatch
import PassmintServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the pass web service: Apple's update protocol, APNs pushes and the issuing API.",
        discussion: """
            Devices talk to <public-url>/v1/… (Apple's protocol, ApplePass or AndroidPass tokens); your servers talk to \
            /api/v1/passes with the API key as a bearer token. Its settings (listed below) come from the command \
            line, else from PASSMINT_* environment variables, else from a JSON config file (--config-file); the signing \
            options come from the command line (the certificates folder also from PASSMINT_CERTIFICATES).

            Public links: with a secret of at least 32 characters in PASSMINT_LINK_SECRET, every pass gets a signed download \
            link (<public-url>/download/<type>/<serial>?…) and an "Add to Apple Wallet" page (<public-url>/add/…), returned \
            by the issuing API as "links". A wrong or expired link answers 404.

            Statistics: the service records what happens to passes (issued, link viewed, downloaded, installed, removed, \
            updated, fetched, push failed, token dead, saved to or removed from Google Wallet; devices only as a salted \
            hash) and keeps each event for PASSMINT_EVENTS_RETENTION (default 90d), then as daily totals. See \
            docs/insights.md.

            --certificates: one identity, or one pass.* sub-folder per pass type identifier; each pass is signed, and its \
            pushes authenticated, with its own type's certificate.

            APNs: by default pushes authenticate with the Pass Type ID certificate (Apple's documented way). With --apns-key \
            AuthKey_<KEYID>.p8 they carry an ES256 provider token instead; the key must belong to the pass type ID's team.

            --database-url: a SQLite file path (default passmint.sqlite, WAL mode) or postgres://user:password@host:port/db (a URL with a password belongs in PASSMINT_DATABASE_URL, out of `ps`). \
            TLS to PostgreSQL as libpq reads the URL: ?sslmode=disable, prefer (the default: TLS when the server offers it), \
            require, verify-ca or verify-full, and &sslrootcert=<ca.pem> (the authority that signed the server's certificate). \
            Migrations run at start-up. SIGTERM or SIGINT stop the service after the requests in flight.

            At start-up the service refuses expired certificates (unless --allow-expired) and lists every template in \
            the templates folder with its pass type and whether it can issue; GET /api/v1/templates answers the same.

            """ + ServeSettings.helpText
    )

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "The service's settings, e.g. --public-url https://passes.example.com/wallet --port 0 (each is listed under SETTINGS).",
            valueName: "setting"))
    var settings: [String] = []
    @Option(help: ArgumentHelp("Environment variable holding the issuing API's bearer key (at least 16 characters).", valueName: "VAR"))
    var apiKeyEnv = "PASSMINT_API_KEY"
    @Flag(help: "Start even when a certificate has expired (for tests: Wallet refuses passes it signs).")
    var allowExpired = false
    @OptionGroup(title: "Signing") var signing: SigningOptions

    func run() async throws {
        MemoryAllocator.keepPassSizedBuffersOffMmap()  // every issued pass allocates a ~150 KB archive: keep those off mmap
        let environment = try SecretFiles.expand(ProcessInfo.processInfo.environment, also: [apiKeyEnv])
        let sources = try await SettingSources(arguments: settings, environment: environment)
        let configuration = try ServerConfiguration(
            settings: sources, environment: environment, apiKeyVariable: apiKeyEnv, identities: { try signing.loadIdentities() })
        let databaseOrigin = try sources.text(ServeSettings.declared.databaseURL.declaration)?.origin
        if case .commandLine = databaseOrigin, configuration.database.hasPassword {
            printError("warning: --database-url shows the database password to anyone who can run `ps`: set PASSMINT_DATABASE_URL instead")
        }
        if configuration.logFormat == "json" { LoggingSystem.bootstrap { JSONLogHandler(label: $0) } }
        let logger = Logger(label: "passmint")
        for (name, meant) in ServeSettings.unknownVariables(in: environment) where name != apiKeyEnv {
            logger.warning(
                "\(name) is not a variable Passmint reads\(meant.map { ": did you mean \($0)?" } ?? "") (its value is ignored)")
        }
        try checkAtStartUp(configuration)
        do {
            // One line for scripts and tests, on standard output: with --port 0 it tells the port the system gave.
            try await buildApplication(configuration: configuration) { [host = configuration.host] port in
                FileHandle.standardOutput.write(Data("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)\n".utf8))
            }.runService()
        } catch {
            throw Self.startFailure(error, configuration: configuration)
        }
    }
}
