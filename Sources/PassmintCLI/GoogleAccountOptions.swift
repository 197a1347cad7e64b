import ArgumentParser
import Foundation
import PassmintGoogle
import PassmintServer

/// The Google Wallet account, as `passmint serve` has it: its settings' flags (`--google-service-account`,
/// `--google-issuer-id`, `--google-api-url`) and, when a flag is left out, their variables (``ServeSettings``). Shared
/// by `batch --google-insert` and `google link` (which also takes the shorter `--service-account`, `--issuer-id` and
/// `--api-url`).
struct GoogleAccountOptions: ParsableArguments {
    private static let settings = ServeSettings.declared

    @Option(
        name: [.customLong(settings.googleServiceAccount.declaration.name), .customLong("service-account")],
        help: ArgumentHelp(
            "A Google Cloud service account's JSON key file (IAM → Service accounts → Keys → Add key → JSON); the account must be a user of the issuer (default: $\(settings.googleServiceAccount.declaration.variable)).",
            valueName: "key.json"))
    var serviceAccount: String?

    @Option(
        name: [.customLong(settings.googleIssuerID.declaration.name), .customLong("issuer-id")],
        help: ArgumentHelp(
            "The issuer id from Google Pay & Wallet console (digits; default: $\(settings.googleIssuerID.declaration.variable)).",
            valueName: "id"))
    var issuerID: String?

    @Option(
        name: [.customLong(settings.googleAPIURL.declaration.name), .customLong("api-url")],
        help: ArgumentHelp(
            "The Wallet API's base URL, a stand-in or staging (default: $\(settings.googleAPIURL.declaration.variable), else Google's).",
            valueName: "url"),
        transform: { try OptionValue.httpURL($0, option: "--google-api-url") })
    var apiURL: URL?

    /// The account's key, issuer and API: the options, else serve's variables. Refused, saying what `purpose` needs, when
    /// the key file or the issuer id is missing; the issuer id is checked before the key file is read.
    func load(for purpose: String) throws -> (key: ServiceAccountKey, issuerID: String, apiURL: URL) {
        let environment = ProcessInfo.processInfo.environment
        let keyVariable = Self.settings.googleServiceAccount.declaration.variable
        let issuerVariable = Self.settings.googleIssuerID.declaration.variable
        guard let keyFile = serviceAccount ?? environment[keyVariable], let issuer = issuerID ?? environment[issuerVariable] else {
            throw ValidationError(
                "\(purpose): give --google-service-account key.json and --google-issuer-id (or \(keyVariable) and \(issuerVariable))")
        }
        try GoogleWalletIdentifier.checkIssuer(issuer)
        let apiVariable = Self.settings.googleAPIURL.declaration.variable
        let api =
            try apiURL ?? environment[apiVariable].map { try OptionValue.httpURL($0, option: apiVariable) } ?? GoogleWalletClient.production
        return (try ServiceAccountKey(contentsOf: keyFile), issuer, api)
    }
}
