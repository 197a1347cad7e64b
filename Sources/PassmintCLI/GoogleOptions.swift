import ArgumentParser
import Foundation
import PassmintGoogle

/// The Google Wallet account and where its passes' parts live.
struct GoogleOptions: ParsableArguments {
    @Option(
        name: .customLong("service-account"),
        help: ArgumentHelp(
            "A Google Cloud service account's JSON key file (IAM → Service accounts → Keys → Add key → JSON); the account must be a user of the issuer.",
            valueName: "key.json"))
    var serviceAccount: String

    @Option(
        name: .customLong("issuer-id"),
        help: ArgumentHelp("The issuer id from Google Pay & Wallet console (digits).", valueName: "id"))
    var issuerID: String

    @Option(
        name: .customLong("api-url"),
        help: ArgumentHelp("The Wallet API's base URL (a stand-in or staging).", valueName: "url"))
    var apiURL: String = GoogleWalletClient.production.absoluteString

    @Option(
        name: .customLong("image-base-url"),
        help: ArgumentHelp(
            "The public URL the template's images are served at (Google fetches images by URL): <url>/logo@3x.png…; without it images are not sent.",
            valueName: "url"))
    var imageBaseURL: String?

    @Option(
        name: .customLong("class-suffix"),
        help: ArgumentHelp("The class id after the issuer id (default: the template's name).", valueName: "suffix"))
    var classSuffix: String?

    @Option(
        name: .customLong("store-card-as"),
        help: ArgumentHelp(
            "Map a storeCard to a loyalty card or a gift card (default: a gift card when a primary field has a currency code).",
            valueName: "loyalty|giftCard"))
    var storeCardAs: String?

    @Option(
        name: .customLong("origin"),
        help: ArgumentHelp("A web origin allowed to show the save button (https://passes.example.com). Repeatable.", valueName: "url"))
    var origins: [String] = []

    func mappingOptions() throws -> GoogleMapping.Options {
        try GoogleWalletIdentifier.checkIssuer(issuerID)
        var giftCard: Bool?
        switch storeCardAs {
        case nil: giftCard = nil
        case "loyalty": giftCard = false
        case "giftCard": giftCard = true
        case let other?: throw ValidationError("--store-card-as \(other): expected loyalty or giftCard")
        }
        var base: URL?
        if let imageBaseURL {
            guard let url = URL(string: imageBaseURL), url.scheme == "https" || url.scheme == "http" else {
                throw ValidationError("--image-base-url \(imageBaseURL) is not an http(s) URL")
            }
            base = url
        }
        return GoogleMapping.Options(issuerID: issuerID, classSuffix: classSuffix, imageBaseURL: base, storeCardIsGiftCard: giftCard)
    }

    func api() throws -> URL {
        guard let url = URL(string: apiURL), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("--api-url \(apiURL) is not an http(s) URL")
        }
        return url
    }
}
