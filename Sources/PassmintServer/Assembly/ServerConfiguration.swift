import Foundation
public import Logging
public import Passmint
public import PassmintStore

/// How the service runs: one value, from which ``buildApplication(configuration:onListening:)`` builds everything. `passmint serve`
/// reads it from its settings in one place (``init(settings:environment:apiKeyVariable:identities:)``);
/// tests set its fields.
public struct ServerConfiguration: Sendable {
    /// Address to listen on.
    public var host = "127.0.0.1"
    public var port = 8080
    private var base: String
    /// The SQLite file (`passmint.sqlite`) or the PostgreSQL database.
    public var database = DatabaseLocation.sqlite(path: "passmint.sqlite")
    /// The folder holding the templates (`<Name>.pass/`) that the issuing API names.
    public var templatesFolder = "PassTemplates"
    /// The folder holding the order templates (`<Name>.order/`) that `POST /api/v1/orders` names; nil: the
    /// ``templatesFolder``. Orders are signed with the Order Type ID identity (UID `order.…`) of ``identities``.
    public var orderTemplatesFolder: String?
    /// The Pass Type ID certificates and keys, one per pass type: each pass is signed with its type's, and (by
    /// default) pushes for a type authenticate to APNs with it.
    public var identities: SigningIdentities
    /// The bearer token of the issuing API; nil disables the API (every call answers 401).
    public var apiKey: String?
    /// The secret that signs passes' public links (``PassLinks``), at least 32 characters; nil: no links.
    public var linkSecret: String?
    /// How long a new public link lasts; nil: until the secret changes.
    public var linkLifetime: Duration?
    /// Where pushes go and how they authenticate.
    public var apns = APNsConfiguration()
    /// Answer the serial-number poll and the 304 of the latest-pass endpoint from memory on the connection's event
    /// loop when the answer is cached (see `DeviceFastPath`), instead of going through the router.
    public var fastPath = true
    /// Accept an http ``publicURL`` (development devices with Settings › Developer › Allow HTTP Services turned on):
    /// lint's `web-service-url-insecure` rule is relaxed for the passes the service issues.
    public var allowHTTP = false
    /// How long a claim on owed pushes holds (``PushQueue``): a node that dies holding pushes loses them to the
    /// others, or to its own restart, after this.
    public var pushLease: Duration = .seconds(60)
    /// How long a worker holds a job without renewing its lease: a service killed (or a node gone) loses its job to
    /// the next start or node that looks, after this.
    public var jobLease: Duration = .seconds(60)
    /// Where bulk changes keep uploads while they arrive or run (``UpdateJob``); by default beside the SQLite file
    /// (`passmint.sqlite.jobs`), or `passmint-jobs` in the working folder with PostgreSQL. The jobs, their uploads and
    /// progress live in the database on either store; this folder holds only copies of the uploads this node runs.
    public var jobsFolder: String {
        get { jobs ?? database.defaultJobsFolder }
        set { jobs = newValue }
    }
    private var jobs: String?
    /// What bulk changes may take of the node: value, chunk, failure and disk bounds (``JobLimits``).
    public var jobLimits = JobLimits()
    /// What a connection may hold and for how long (``ConnectionLimits``).
    public var connections = ConnectionLimits()
    /// Largest request body accepted (413 beyond).
    public var maxBodySize = 64 * 1024
    /// The proxies (TLS terminators, load balancers) whose `Forwarded`/`X-Forwarded-For` headers name the client
    /// (`ClientAddress`); a request from any other peer is that peer's. Empty: no header is believed.
    public var trustedProxies: [IPNetwork] = []
    /// How many device log messages are kept for the operator.
    public var deviceLogLimit = 1000
    /// How long events are kept one by one (`PASSMINT_EVENTS_RETENTION`, e.g. `90d`); older days are kept as daily
    /// aggregates (``EventPruner``).
    public var eventRetention: Duration = .seconds(90 * 86_400)
    /// What webhook receivers may be and how deliveries are retried (``WebhookPolicy``).
    public var webhooks = WebhookPolicy()
    public var logLevel: Logger.Level = .info
    /// `--log-format`: `text` or `json` (``JSONLogHandler``); the command line installs the handler.
    public var logFormat = "text"
    /// `PASSMINT_METRICS_TOKEN`: a second bearer token that opens `/metrics` only (Prometheus never holds the API key).
    public var metricsToken: String?
    /// `--config-file`, named in the start-up line.
    public var configFile: String?
    /// `--self-check`: the pass the service checks itself with once listening (``ServiceSelfCheck``); nil: no check.
    public var selfCheck: PassKey?
    /// The Google Wallet account passes are also issued for (``GoogleWalletService``); nil: Apple Wallet only.
    public var google: GoogleConfiguration?
    /// Apple Pay: the merchant keys `POST /api/v1/payments` decrypts tokens with, and its processor; nil: no payments.
    public var applePay: ApplePayConfiguration?
    /// Apple Pay on the web: the Merchant Identity `POST /pay/session` validates pages' sessions with; nil: no sessions.
    public var merchantIdentity: MerchantIdentityConfiguration?

    public init(publicURL: String, identities: SigningIdentities) {
        base = ""
        self.identities = identities
        self.publicURL = publicURL
    }

    /// A configuration that signs with one identity.
    public init(publicURL: String, identity: SigningIdentity) {
        self.init(publicURL: publicURL, identities: SigningIdentities(identity))
    }

    /// The service's public base URL, written into every pass as `webServiceURL` (e.g.
    /// `https://passes.example.com/wallet`), without a trailing slash. Its path is the prefix Apple's endpoints are
    /// mounted under.
    public var publicURL: String {
        get { base }
        set { base = newValue.hasSuffix("/") ? String(newValue.dropLast()) : newValue }
    }

    /// The path Apple's endpoints live under: the path of ``publicURL`` (`/wallet`), or empty.
    public var pathPrefix: String {
        let path = URL(string: publicURL)?.path ?? ""
        return path == "/" ? "" : path
    }
}
