import ArgumentParser
import Foundation
import PassmintServer

/// The update service's public URL, as `passmint serve` has it: its setting's flag (`--public-url`) and, when the flag
/// is left out, its variable (``ServeSettings``). Taken by `batch`, which writes it into every pass as webServiceURL.
struct PublicURLOptions: ParsableArguments {
    static let setting = ServeSettings.declared.publicURL.declaration

    @Option(
        name: .customLong(setting.name),
        help: ArgumentHelp(
            "The update service's public URL (as `passmint serve --\(setting.name)`), written into every pass as webServiceURL; every pass then gets an authentication token. Needed with --register unless the template has a webServiceURL (default: $\(setting.variable)).",
            valueName: "url"))
    var url: String?

    /// The option, else serve's variable in `environment`, without a final slash; nil when neither is given. Refused
    /// when it is not a URL.
    func resolved(_ environment: [String: String]) throws -> String? {
        guard let given = url ?? environment[Self.setting.variable] else { return nil }
        let url = given.hasSuffix("/") ? String(given.dropLast()) : given
        guard URL(string: url)?.host == nil else { return url }
        throw ValidationError(
            "--\(Self.setting.name) \(url) is not a URL: give the service's public URL, e.g. https://passes.example.com/wallet")
    }
}
