import ArgumentParser
import Foundation
import PassmintGoogle

/// `passmint batch --google`: a `googleSaveURL` column in the report, its objects sent to Google on the link's first
/// use (through the service) or at once (`--google-insert`, with the account).
struct BatchGoogleOptions: ParsableArguments {
    @Flag(
        name: .customLong("google"),
        help: ArgumentHelp(
            "Add a googleSaveURL column to the report: each pass's \"Add to Google Wallet\" link. By default the link is the service's (<public URL>/google/save/…, needs --register and $PASSMINT_LINK_SECRET): the first time it is followed, `passmint serve` (with its Google account) sends the pass's class and object to Google and leads on to Google's link. With --google-insert, the batch sends them itself and writes Google's link."
        ))
    var enabled = false

    @Flag(
        name: .customLong("google-insert"),
        help: ArgumentHelp(
            "With --google: insert (or patch) each pass's Google class and object now, against --google-api-url, and write Google's own link (https://pay.google.com/gp/v/save/…). Needs --google-service-account and --google-issuer-id. Images are named at the service's addresses under --public-url."
        ))
    var insert = false

    @Option(
        name: .customLong("google-service-account"),
        help: ArgumentHelp(
            "With --google-insert: the service account's JSON key file (default: $PASSMINT_GOOGLE_SERVICE_ACCOUNT).", valueName: "key.json")
    )
    var serviceAccount: String?

    @Option(
        name: .customLong("google-issuer-id"),
        help: ArgumentHelp("With --google-insert: the issuer id (digits; default: $PASSMINT_GOOGLE_ISSUER_ID).", valueName: "id"))
    var issuerID: String?

    @Option(
        name: .customLong("google-api-url"),
        help: ArgumentHelp(
            "With --google-insert: the Wallet API's base URL, a stand-in or staging (default: $PASSMINT_GOOGLE_API_URL, else Google's).",
            valueName: "url"))
    var apiURL: String?

    /// The account, API and issuer for `--google-insert`; refused, naming what is missing, when incomplete.
    func account() throws -> (key: ServiceAccountKey, issuerID: String, apiURL: URL) {
        let environment = ProcessInfo.processInfo.environment
        guard let keyFile = serviceAccount ?? environment["PASSMINT_GOOGLE_SERVICE_ACCOUNT"],
            let issuer = issuerID ?? environment["PASSMINT_GOOGLE_ISSUER_ID"]
        else {
            throw ValidationError(
                "--google-insert sends the passes to Google with its account: give --google-service-account key.json and --google-issuer-id (or PASSMINT_GOOGLE_SERVICE_ACCOUNT and PASSMINT_GOOGLE_ISSUER_ID)"
            )
        }
        try GoogleWalletIdentifier.checkIssuer(issuer)
        let api = apiURL ?? environment["PASSMINT_GOOGLE_API_URL"] ?? GoogleWalletClient.production.absoluteString
        guard let url = URL(string: api), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("--google-api-url \(api) is not an http(s) URL")
        }
        return (try ServiceAccountKey(contentsOf: keyFile), issuer, url)
    }
}
