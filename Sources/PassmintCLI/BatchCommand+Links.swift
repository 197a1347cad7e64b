import ArgumentParser
import Foundation
import Passmint
import PassmintGoogle
import PassmintServer

extension BatchCommand {
    /// The report's links, when `PASSMINT_LINK_SECRET` holds the service's link secret (``LinkSecret``).
    func links(publicURL: String?, secret: String?) -> (@Sendable (String, String) -> (download: String, add: String))? {
        guard let secret else {
            if !quiet && !json {
                printError("note: no PASSMINT_LINK_SECRET: the report has no download links (set it to the secret `passmint serve` uses)")
            }
            return nil
        }
        guard let publicURL else { return nil }
        let links = PassLinks(
            secret: secret, publicURL: publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL,
            lifetime: linkLifetime)
        return { type, serial in
            let made = links.links(passTypeIdentifier: type, serialNumber: serial)
            return (made.download, made.add)
        }
    }
}

extension BatchCommand {
    /// `--google`: the report's Google links; nil without it. By default the service's links (needs the store and
    /// the link secret), with `--google-insert` Google's own, the objects inserted by this run.
    func googleLink(
        template: PassTemplate, folder: String, publicURL: String?, registered: Bool, linkSecret: String?
    ) throws -> BatchGoogleLinks? {
        guard google.enabled || google.insert else { return nil }
        let publicURL = publicURL ?? template.passJSON["webServiceURL"]?.stringValue
        let name = URL(fileURLWithPath: folder).deletingPathExtension().lastPathComponent
        guard google.insert else {
            guard registered, let secret = linkSecret, let publicURL
            else {
                throw ValidationError(
                    "--google writes links the service follows (<public URL>/google/save/…), so it needs --register (with --public-url) and PASSMINT_LINK_SECRET, as `passmint serve` has them; or give --google-insert with --google-service-account and --google-issuer-id to send the passes to Google now"
                )
            }
            let base = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
            return BatchGoogleLinks(
                service: PassLinks(secret: secret, publicURL: base, lifetime: linkLifetime))
        }
        let account = try google.account.load(for: "--google-insert sends the passes to Google with its account")
        let http = GoogleHTTP()
        let origin = publicURL.flatMap(URL.init(string:)).flatMap { url in
            url.scheme.flatMap { scheme in url.host.map { "\(scheme)://\($0)" + (url.port.map { ":\($0)" } ?? "") } }
        }
        return BatchGoogleLinks(
            inserting: .init(
                template: template, templateName: name, mapping: GoogleMapping.Options(issuerID: account.issuerID),
                client: GoogleWalletClient(
                    apiURL: account.apiURL, tokens: GoogleAccessTokens(key: account.key, http: http), http: http),
                http: http, saveLink: GoogleSaveLink(key: account.key), origins: origin.map { [$0] } ?? [],
                imageBase: publicURL.map(GoogleImageService.base(publicURL:))))
    }
}
