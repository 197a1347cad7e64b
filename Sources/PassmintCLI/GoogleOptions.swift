import ArgumentParser
import Foundation
import PassmintGoogle

/// The Google Wallet account and where its passes' parts live.
struct GoogleOptions: ParsableArguments {
    @OptionGroup var account: GoogleAccountOptions

    @Option(
        name: .customLong("image-base-url"),
        help: ArgumentHelp(
            "The public URL the template's images are served at (Google fetches images by URL): <url>/logo@3x.png…; without it images are not sent.",
            valueName: "url"),
        transform: { try OptionValue.httpURL($0, option: "--image-base-url") })
    var imageBaseURL: URL?

    @Option(
        name: .customLong("class-suffix"),
        help: ArgumentHelp("The class id after the issuer id (default: the template's name).", valueName: "suffix"))
    var classSuffix: String?

    @Option(
        name: .customLong("store-card-as"),
        help: ArgumentHelp(
            "Map a storeCard to a loyalty card or a gift card (default: a gift card when a primary field has a currency code).",
            valueName: "loyalty|giftCard"),
        transform: { text in
            switch text {
            case "loyalty": false
            case "giftCard": true
            default: throw ValidationError("--store-card-as \(text): expected loyalty or giftCard")
            }
        })
    var storeCardIsGiftCard: Bool?

    @Option(
        name: .customLong("origin"),
        help: ArgumentHelp("A web origin allowed to show the save button (https://passes.example.com). Repeatable.", valueName: "url"))
    var origins: [String] = []

    func mappingOptions(issuerID: String) -> GoogleMapping.Options {
        GoogleMapping.Options(
            issuerID: issuerID, classSuffix: classSuffix, imageBaseURL: imageBaseURL, storeCardIsGiftCard: storeCardIsGiftCard)
    }
}
