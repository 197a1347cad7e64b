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

    @OptionGroup var account: GoogleAccountOptions
}
