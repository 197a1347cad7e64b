import ArgumentParser
import Foundation
import Hummingbird
import Passmint
import PassmintBatch
import PassmintServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the pass web service: Apple's update protocol, APNs pushes and the issuing API.",
        discussion: """
            Devices talk to <public-url>/v1/… (Apple's protocol, ApplePass or AndroidPass tokens); your servers talk to \
            /api/v1/passes with the API key as a bearer token. Every option can also come from the environment: \
            PASSMINT_HOST, PASSMINT_PORT, PASSMINT_PUBLIC_URL, PASSMINT_DATABASE_URL, PASSMINT_TEMPLATES, PASSMINT_CERTIFICATES, \
            PASSMINT_APNS_URL, PASSMINT_APNS_CA, PASSMINT_APNS_KEY, PASSMINT_APNS_KEY_ID, PASSMINT_APNS_TEAM_ID, \
            PASSMINT_LINK_LIFETIME, PASSMINT_MAX_VALUE_SIZE, PASSMINT_JOB_FAILURES_KEPT, \
            PASSMINT_JOB_UPLOAD_RETENTION, PASSMINT_JOBS_DISK_RESERVE, PASSMINT_FAST_PATH=0 (as --no-fast-path), PASSMINT_ALLOW_HTTP=1 (as --allow-http); a \
            command-line option wins over its variable.

            Public links: with a secret of at least 32 characters in PASSMINT_LINK_SECRET, every pass gets a signed download \
            link (<public-url>/download/<type>/<serial>?…) and an "Add to Apple Wallet" page (<public-url>/add/…), returned \
            by the issuing API as "links". A wrong or expired link answers 404.

            Statistics: the service records what happens to passes (issued, link viewed, downloaded, installed, removed, \
            updated, fetched, push failed, token dead; devices only as a salted hash) and keeps each event for \
            PASSMINT_EVENTS_RETENTION (default 90d), then as daily totals. See docs/insights.md.

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
            """
    )

    @Option(help: "Address to listen on.") var host: String?
    @Option(
        help: "Port to listen on; 0 takes a free port. Once listening, serve prints `listening on http://<host>:<port>` on one line.")
    var port: Int?
    @Option(
        help: ArgumentHelp(
            "Public base URL written into passes as webServiceURL; its path is where Apple's endpoints are mounted.", valueName: "url"))
    var publicURL: String?
    @Option(help: ArgumentHelp("SQLite file or postgres:// URL.", valueName: "url")) var databaseURL: String?
    @Option(help: ArgumentHelp("Folder with the templates the issuing API names.", valueName: "dir")) var templates: String?
    @Option(help: ArgumentHelp("Environment variable holding the issuing API's bearer key (at least 16 characters).", valueName: "VAR"))
    var apiKeyEnv = "PASSMINT_API_KEY"
    @Option(help: ArgumentHelp("APNs endpoint (default: Apple's production service).", valueName: "url")) var apnsURL: String?
    @Option(help: ArgumentHelp("Extra root certificate (PEM) to trust for the APNs endpoint, for a test server.", valueName: "file"))
    var apnsCA: String?
    @Option(help: ArgumentHelp("APNs auth key (.p8): push with provider tokens instead of the certificate.", valueName: "file"))
    var apnsKey: String?
    @Option(help: ArgumentHelp("The .p8 key's identifier (default: from the file name AuthKey_<KEYID>.p8).", valueName: "id"))
    var apnsKeyId: String?
    @Option(help: ArgumentHelp("The team of the .p8 key (default: the certificate's team identifier).", valueName: "id")) var apnsTeamId:
        String?
    @Flag(
        help: ArgumentHelp(
            "Accept an http --public-url, for development devices with Settings › Developer › Allow HTTP Services turned on; passes issued then carry an http webServiceURL, which other devices refuse."
        ))
    var allowHTTP = false
    @Option(
        help: ArgumentHelp(
            "How long new public download links last: seconds, or a number with m, h or d (e.g. 30d); default: until PASSMINT_LINK_SECRET changes.",
            valueName: "duration"))
    var linkLifetime: String?
    @Option(
        help: ArgumentHelp(
            "How long this node holds the pushes it claimed (default 60s): after a crash, what it held goes out once this has passed.",
            valueName: "duration"))
    var pushLease: String?
    @Option(
        help: ArgumentHelp(
            "Where bulk changes keep their uploads and progress (default: beside the SQLite file, or ./passmint-jobs with PostgreSQL).",
            valueName: "dir"))
    var jobsFolder: String?
    @Option(
        help: ArgumentHelp(
            "How long a connection may take to send a request's head, from opening or from its previous answer, before it is closed (default 30s).",
            valueName: "duration"))
    var headerTimeout: String?
    @Option(
        help: ArgumentHelp(
            "How long a request body may stall, or a connection stay without a request, before it is closed (default 60s).",
            valueName: "duration"))
    var idleTimeout: String?
    @Option(
        help: ArgumentHelp(
            "Most connections open at once (default 10000); beyond it an idle one is closed to make room.", valueName: "N"))
    var maxConnections: Int?
    @Option(
        help: ArgumentHelp(
            "Longest text value of a pass's data a bulk change takes: bytes, or a number with k, m or g (default 64k); a longer one fails its line.",
            valueName: "size"))
    var maxValueSize: String?
    @Option(
        help: ArgumentHelp(
            "Failures written to a job's failures file (default 10000); the rest are counted only.", valueName: "N"))
    var jobFailuresKept: Int?
    @Option(
        help: ArgumentHelp(
            "How long a job's upload is kept after the job ended (default 0: removed when it ends), e.g. 7d.", valueName: "duration"))
    var jobUploadRetention: String?
    @Option(
        help: ArgumentHelp(
            "Free disk space kept for the store on the jobs folder's disk (default 256m): below it uploads are refused with 507.",
            valueName: "size"))
    var jobsDiskReserve: String?
    @Option(
        help: ArgumentHelp(
            "How long a request's whole body may take to arrive, from the end of its head, before the connection is closed (default 60s).",
            valueName: "duration"))
    var bodyTimeout: String?
    @Option(
        help: ArgumentHelp(
            "Most connections one client address may have open at once (default 256; trusted proxies have no cap).", valueName: "N"))
    var maxConnectionsPerAddress: Int?
    @Option(
        help: ArgumentHelp(
            "Proxies (addresses or CIDR networks, comma-separated) whose Forwarded or X-Forwarded-For header names the client, for the per-client device log budget; from any other peer the headers are ignored (default: none).",
            valueName: "CIDR"))
    var trustedProxy: String?
    @Flag(help: "Send every request through the router (no answers from memory on the event loop), e.g. to compare speeds.")
    var noFastPath = false
    @Flag(help: "Start even when a certificate has expired (for tests: Wallet refuses passes it signs).")
    var allowExpired = false
    @OptionGroup(title: "Signing") var signing: SigningOptions

    /// The options given on the command line, by setting; ``ServerConfiguration`` reads the environment for the rest.
    var givenSettings: [ServerConfiguration.Setting: String] {
        let options: [ServerConfiguration.Setting: String?] = [
            .host: host, .port: port.map(String.init), .publicURL: publicURL, .databaseURL: databaseURL, .templates: templates,
            .apnsURL: apnsURL, .apnsCA: apnsCA, .apnsKey: apnsKey, .apnsKeyID: apnsKeyId, .apnsTeamID: apnsTeamId,
            .linkLifetime: linkLifetime, .pushLease: pushLease, .jobsFolder: jobsFolder, .headerTimeout: headerTimeout,
            .idleTimeout: idleTimeout, .maxConnections: maxConnections.map(String.init),
            .maxValueSize: maxValueSize, .jobFailuresKept: jobFailuresKept.map(String.init),
            .jobUploadRetention: jobUploadRetention, .jobsDiskReserve: jobsDiskReserve, .trustedProxy: trustedProxy,
            .bodyTimeout: bodyTimeout, .maxConnectionsPerAddress: maxConnectionsPerAddress.map(String.init),
        ]
        var given = options.compactMapValues { $0 }
        if noFastPath { given[.fastPath] = "0" }
        if allowHTTP { given[.allowHTTP] = "1" }
        return given
    }

    func run() async throws {
        MemoryAllocator.keepPassSizedBuffersOffMmap()  // every issued pass allocates a ~150 KB archive: keep those off mmap
        if let databaseURL, DatabaseURL.hasPassword(databaseURL) {
            printError("warning: --database-url shows the database password to anyone who can run `ps`: set PASSMINT_DATABASE_URL instead")
        }
        let configuration = try ServerConfiguration(
            options: givenSettings, environment: ProcessInfo.processInfo.environment, apiKeyVariable: apiKeyEnv,
            identities: { try signing.loadIdentities() })
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
