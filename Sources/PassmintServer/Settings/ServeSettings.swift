package import Foundation
import Passmint
package import PassmintStore

/// Every setting of `passmint serve`, each declared once: its flag (`--name`), variable (`PASSMINT_NAME`), config-file
/// key (`name`), default, help and check come from its line here. Adding a setting is adding a line here and reading it
/// where it is used (``ServerConfiguration/init(settings:environment:apiKeyVariable:identities:)``); `serve --help`
/// and docs/configuration.md list it from here.
package struct ServeSettings: Sendable {
    package let host = ServeSetting.text("host", "address", default: .value("127.0.0.1"), help: "Address to listen on.")
    package let port = ServeSetting.port(
        "port", default: .value("8080"),
        help: "Port to listen on; 0 takes a free port. Once listening, serve prints `listening on http://<host>:<port>` on one line.")
    package let publicURL = ServeSetting.url(
        "public-url", example: "https://passes.example.com/wallet",
        help: "Public base URL written into passes as webServiceURL; its path is where Apple's endpoints are mounted. Required.")
    package let databaseURL = ServeSetting.database(
        "database-url", default: .value("passmint.sqlite"),
        help: "SQLite file or postgres:// URL (a URL with a password belongs in the variable, out of `ps`).")
    package let templates = ServeSetting.text(
        "templates", "dir", default: .value("PassTemplates"), help: "Folder with the templates the issuing API names.")
    package let orderTemplates = ServeSetting.text(
        "order-templates", "dir", default: .described("the templates folder"),
        help: "Folder with the order templates (<Name>.order) that POST /api/v1/orders names.")
    package let apnsURL = ServeSetting.url(
        "apns-url", example: "https://api.push.apple.com", default: .value("https://api.push.apple.com"),
        help: "APNs endpoint (default: Apple's production service).")
    package let apnsCA = ServeSetting.text(
        "apns-ca", "file", help: "Extra root certificate (PEM) to trust for the APNs endpoint, for a test server.")
    package let apnsKey = ServeSetting.text(
        "apns-key", "file", help: "APNs auth key (.p8): push with provider tokens instead of the certificate.")
    package let apnsKeyID = ServeSetting.text(
        "apns-key-id", "id", default: .described("from the file name AuthKey_<KEYID>.p8"), help: "The .p8 key's identifier.")
    package let apnsTeamID = ServeSetting.text(
        "apns-team-id", "id", default: .described("the certificate's team identifier"), help: "The team of the .p8 key.")
    package let apnsConnections = ServeSetting.count(
        "apns-connections", of: "connections", from: 1, default: .value("2"),
        help: "HTTP/2 connections to APNs for each client identity; pushes go round them (more for high volumes, fewer for a small node).")
    package let allowHTTP = ServeSetting.switch(
        "allow-http", default: false,
        help: """
            Accept an http public URL, for development devices with Settings › Developer › Allow HTTP Services turned on; \
            passes issued then carry an http webServiceURL, which other devices refuse.
            """)
    package let fastPath = ServeSetting.switch(
        "fast-path", default: true,
        help:
            "Answer cached device polls from memory on the event loop; off sends every request through the router, e.g. to compare speeds.")
    package let linkLifetime = ServeSetting.duration(
        "link-lifetime", example: "30d", default: .described("until PASSMINT_LINK_SECRET changes"),
        help: "How long new public download links last.")
    package let pushLease = ServeSetting.duration(
        "push-lease", example: "60s", default: .value("60s"),
        help: """
            How long this node holds the pushes, webhook deliveries and Google updates it claimed: after a crash, what it \
            held goes out once this has passed.
            """)
    package let jobLease = ServeSetting.duration(
        "job-lease", example: "60s", default: .value("60s"),
        help:
            "How long a bulk-update job stays with its worker after the worker's last word: then the next start, or another node, takes it over."
    )
    package let jobsFolder = ServeSetting.text(
        "jobs-folder", "dir", default: .described("beside the SQLite file, or ./passmint-jobs with PostgreSQL"),
        help: "Where bulk changes keep uploads while they arrive or run (the jobs and their progress are in the database).")
    package let headerTimeout = ServeSetting.duration(
        "header-timeout", example: "30s", default: .value("30s"),
        help: "How long a connection may take to send a request's head, from opening or from its previous answer, before it is closed.")
    package let idleTimeout = ServeSetting.duration(
        "idle-timeout", example: "60s", default: .value("60s"),
        help: "How long a request body may stall, or a connection stay without a request, before it is closed.")
    package let bodyTimeout = ServeSetting.duration(
        "body-timeout", example: "60s", default: .value("60s"),
        help: "How long a request's whole body may take to arrive, from the end of its head, before the connection is closed.")
    package let maxConnections = ServeSetting.count(
        "max-connections", of: "connections", from: 1, default: .value("10000"),
        help: "Most connections open at once; beyond it an idle one is closed to make room.")
    package let maxConnectionsPerAddress = ServeSetting.count(
        "max-connections-per-address", of: "connections", from: 1, default: .value("256"),
        help: "Most connections one client address may have open at once (trusted proxies have no cap).")
    package let trustedProxy = ServeSetting.networks(
        "trusted-proxy", example: "10.0.0.0/8,192.0.2.7",
        help: """
            Proxies (addresses or CIDR networks, comma-separated) whose Forwarded or X-Forwarded-For header names the client, \
            for the per-client device log budget; from any other peer the headers are ignored.
            """)
    package let maxValueSize = ServeSetting.size(
        "max-value-size", example: "64k", minimum: 1, maximum: (Int64(JSONLinesReader.maximumLineBytes), "16m"), default: .value("64k"),
        help: "Longest text value of a pass's data a bulk change takes; a longer one fails its line.")
    package let eventsRetention = ServeSetting.duration(
        "events-retention", example: "90d", atLeast: (.seconds(86_400), "a day"), default: .value("90d"),
        help:
            "How long single events (issues, installs, removals, fetches…) are kept; older ones become daily counts, kept for ever. Payments declined or issued are kept as long."
    )
    package let webhooksAllowHTTP = ServeSetting.switch(
        "webhooks-allow-http", default: false,
        help: "Accept http webhook receivers (tests, a receiver beside the service); otherwise https only.")
    package let webhooksAllowPrivate = ServeSetting.switch(
        "webhooks-allow-private", default: false,
        help: """
            Accept webhook receivers whose name resolves to a loopback, private or link-local address (tests, in-cluster \
            receivers); otherwise they are refused when registered and before every delivery.
            """)
    package let jobFailuresKept = ServeSetting.count(
        "job-failures-kept", of: "failures", from: 0, default: .value("10000"),
        help: "Failures written to a job's failures file; the rest are counted only.")
    package let jobUploadRetention = ServeSetting.duration(
        "job-upload-retention", example: "7d", zero: true, default: .value("0"),
        help: "How long a job's upload is kept after the job ended; 0: removed when it ends.")
    package let jobsDiskReserve = ServeSetting.size(
        "jobs-disk-reserve", example: "256m", default: .value("256m"),
        help: "Free disk space kept for the store on the jobs folder's disk: below it uploads are refused with 507.")
    package let googleServiceAccount = ServeSetting.text(
        "google-service-account", "file",
        help: """
            A Google Cloud service account's JSON key file: issuing answers then carry googleSaveURL ("Add to Google \
            Wallet") and changes patch the passes' Google objects. Needs google-issuer-id.
            """)
    package let googleIssuerID = ServeSetting.text(
        "google-issuer-id", "id", help: "The issuer id from Google Pay & Wallet console (digits). Needs google-service-account.")
    package let googleAPIURL = ServeSetting.url(
        "google-api-url", example: "https://walletobjects.googleapis.com", default: .value("https://walletobjects.googleapis.com"),
        help: "Google Wallet API endpoint (default: Google's), for a stand-in or staging.")
    package let googleCallbackKeys = ServeSetting.text(
        "google-callback-keys", "file",
        help: """
            Google's callback signing keys, as downloaded from https://pay.google.com/gp/m/issuer/keys: classes then carry \
            a callback URL (the public URL + /google/callbacks) and Google's save/delete callbacks are verified and recorded \
            (google.saved, google.removed). Re-read when the file changes. Needs google-service-account.
            """)
    package let applePayMerchantCert = ServeSetting.text(
        "apple-pay-merchant-cert", "file",
        help: """
            Apple Pay payment processing certificate (PEM or DER): POST /api/v1/payments verifies and decrypts tokens \
            with it. Repeat the flag (or give a comma-separated list), paired in order with apple-pay-merchant-key, to hold \
            an old and a new certificate while they rotate. Needs apple-pay-merchant-key.
            """, repeatable: true)
    package let applePayMerchantKey = ServeSetting.text(
        "apple-pay-merchant-key", "file",
        help: """
            The private key (PEM) of each apple-pay-merchant-cert, in the same order; PASSMINT_APPLE_PAY_MERCHANT_KEY_FILE \
            may name a file holding the PEM key(s) instead.
            """, repeatable: true)
    package let applePayProcessorURL = ServeSetting.url(
        "apple-pay-processor-url", example: "https://processor.example.com/authorize",
        help: """
            The https endpoint that authorizes a decrypted payment (signed with PASSMINT_APPLE_PAY_PROCESSOR_SECRET as \
            webhooks are); without it a payment is approved and its data returned to the caller.
            """)
    package let applePayProcessorCA = ServeSetting.text(
        "apple-pay-processor-ca", "file", help: "Extra root certificate (PEM) to trust for the processor endpoint (a private CA).")
    package let applePayMerchantIdentity = ServeSetting.text(
        "apple-pay-merchant-identity", "file",
        help: """
            The Apple Pay Merchant Identity certificate and its private key, in one PEM file: POST /pay/session then \
            validates a web page's Apple Pay session with Apple (mutual TLS), for Apple's hosts only. An encrypted key is \
            read with PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE, as the merchant keys are.
            """)
    package let applePayDisplayName = ServeSetting.text(
        "apple-pay-display-name", "name", default: .described("the merchant identifier"),
        help: "The merchant name a web page's payment sheet shows (displayName of the merchant validation).")
    package let applePayDomain = ServeSetting.text(
        "apple-pay-domain", "host", default: .described("the public URL's host"),
        help: "The domain registered for Apple Pay on the web whose pages ask for sessions (initiativeContext).")
    package let applePayTimeout = ServeSetting.duration(
        "apple-pay-timeout", example: "10s", default: .value("10s"),
        help: "How long the payment processor, or Apple's merchant validation, has to answer.")
    package let selfCheck = ServeSetting.pass(
        "self-check", example: "pass.com.example.member/self-check",
        help: """
            Once listening, check the service as a device would (the checks of passmint check-service) with this pass, over \
            loopback, and log each failing check and a summary; off when not given. The pass must be issued already (best one \
            kept for the check); the check's calls leave no events, statistics, webhooks or device logs.
            """)
    package let logFormat = ServeSetting.choice(
        "log-format", among: ["text", "json"], default: "text",
        help:
            "How log lines are written to standard error: text, or json (one object a line, for a log collector). LOG_LEVEL sets the level."
    )
    package let configFile = ServeSetting.text(
        "config-file", "file",
        help: "A JSON file of settings, keyed by their names (`{\"port\": 8080}`); the command line and the environment win over it.",
        inFile: false)

    /// The settings, declared once.
    package static let declared = ServeSettings()

    /// Every setting, in the order declared.
    package static let all: [SettingDeclaration] = Mirror(reflecting: declared).children.compactMap {
        ($0.value as? any DeclaredSetting)?.declaration
    }
}
