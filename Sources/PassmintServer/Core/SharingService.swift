import Foundation
import HTTPTypes
package import NIOCore
import Passmint
import PassmintPreview
package import PassmintStore

/// What a person holding a pass's or an order's public link (``PassLinks``) gets: the signed pass (or `.order`), or
/// what its "Add to Apple Wallet" page shows. An order's links are a pass's with the order type identifier and the
/// order identifier in place of the pass type and the serial: `/download/order.…/<id>`, `/add/order.…/<id>`. A link that is wrong, expired or for a pass that is gone answers the same 404, saying nothing more; a
/// valid link to an erased pass answers 410 (``linkGone(_:)``), and so does the download of a voided pass.
/// Passes are signed on their first fetch and then cached (``LatestPassService``), so a link nobody opens costs no
/// signature.
package struct SharingService: Sendable {
    /// A link as presented: the path's pass, and the query's expiry and signature.
    package struct Link: Sendable {
        package var passTypeIdentifier: String
        package var serialNumber: String
        package var expires: String?
        package var signature: String?

        package init(passTypeIdentifier: String, serialNumber: String, expires: String?, signature: String?) {
            self.passTypeIdentifier = passTypeIdentifier
            self.serialNumber = serialNumber
            self.expires = expires
            self.signature = signature
        }
    }

    /// What the landing page shows, from the pass as it renders now.
    package struct Page: Sendable {
        package var organizationName: String
        package var description: String
        package var logoText: String?
        package var backgroundColor: String?
        package var foregroundColor: String?
        /// `logo@2x.png` (or `logo.png`) of the pass, when it has one.
        package var logoPNG: [UInt8]?
        /// The download link (the QR code's text).
        package var downloadURL: String
        /// The download link's path and query relative to the page (`../../download/…`), for the button, so that it
        /// works whatever host name the page was reached by.
        package var relativeDownloadURL: String
        package var voided: Bool
        /// The pass's "Add to Google Wallet" link, when the service issues for Google Wallet and Google answered.
        package var googleSaveURL: String? = nil
        /// What the link gives: a pass, or a Wallet order.
        package var kind: Kind = .pass
        /// The page's language (``SharingService/pageLanguage(files:acceptLanguage:table:)``): its own words and what it
        /// shows of the pass are in it.
        package var language = "en"

        package enum Kind: String, Sendable { case pass, order }
    }

    /// nil when the service has no link secret: then there are no links, and every link answers 404.
    package let links: PassLinks?
    let store: any PassStore
    let renderer: PassRenderer
    let downloads: LatestPassService
    let events: PassEventLog
    /// Google Wallet links for the page, when there is a Google account.
    let google: GoogleWalletService?

    /// Both links of a stored pass; nil without a link secret.
    package func links(for pass: StoredPass) -> PassLinks.Links? {
        links?.links(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
    }

    /// The pass (or order: `kind`) a valid link names.
    func pass(for link: Link, _ kind: WalletWebService.Kind = .pass) async throws -> StoredPass {
        guard let links,
            links.isValid(
                passTypeIdentifier: link.passTypeIdentifier, serialNumber: link.serialNumber, expires: link.expires,
                signature: link.signature),
            let pass = try await store.document(kind, link.passTypeIdentifier, link.serialNumber)
        else { throw ServiceFailure.notFound }
        if pass.erasedAt != nil { throw Self.linkGone("was removed at its holder's request") }
        return pass
    }

    /// What a valid link to a pass that was erased (or, for its download, voided) answers: 410 `link-gone`.
    static func linkGone(_ why: String) -> ServiceFailure {
        ServiceFailure(.gone, "this pass \(why); its link no longer works", code: "link-gone")
    }

    /// The signed `.pkpass` (or `.order`) a valid link names, and the pass; 410 for a voided pass (devices that hold it
    /// still fetch its voided version through the web service).
    package func download(_ link: Link) async throws -> (pass: StoredPass, archive: ByteBuffer) {
        let kind = WalletWebService.Kind(typeIdentifier: link.passTypeIdentifier)
        let pass = try await pass(for: link, kind)
        if kind == .order { return (pass, try await downloads.latestPass(pass)) }
        if pass.voided { throw Self.linkGone("is no longer valid") }
        let archive = try await downloads.latestPass(pass)
        try await events.record(.downloaded, pass)
        return (pass, archive)
    }

    /// The "Add to Google Wallet" link of the pass a valid link names, its class and object sent to Google first when
    /// Google does not hold them as the pass is now: what a batch's `googleSaveURL` leads to, so that a pass's object
    /// is inserted when the link is first followed. 404 without a Google account or for a voided pass; 503 with
    /// Google's message when Google cannot be reached (the link works again once it can).
    package func googleSaveURL(_ link: Link) async throws -> String {
        let pass = try await pass(for: link)
        guard let google, !pass.voided else { throw ServiceFailure.notFound }
        do {
            return try await google.saveURL(for: pass)
        } catch {
            throw ServiceFailure(.serviceUnavailable, "Google Wallet did not take the pass; open the link again later: \(error)")
        }
    }

    /// What the landing page of a valid link shows, in the language `acceptLanguage` (the request's header) prefers
    /// among the pass's own; with `google`, the pass's Google Wallet link too (none when the service has no Google
    /// account, the pass is voided or Google cannot be reached: the page offers Apple Wallet).
    package func page(_ link: Link, acceptLanguage: String? = nil, google wantsGoogle: Bool = false) async throws -> Page {
        if WalletWebService.Kind(typeIdentifier: link.passTypeIdentifier) == .order {
            return try await orderPage(link, acceptLanguage: acceptLanguage)
        }
        let pass = try await pass(for: link)
        guard let links else { throw ServiceFailure.notFound }
        let prepared = try await renderer.prepare(pass)
        guard let json = try? JSONParser.value(prepared.passJSON).objectValue else { throw ServiceFailure.notFound }
        let logo = ["logo@2x.png", "logo.png"].lazy.compactMap { name in prepared.files.first { $0.path == name } }.first
        try await events.record(.linkViewed, pass)
        let path = PassLinks.path(
            passTypeIdentifier: link.passTypeIdentifier, serialNumber: link.serialNumber, expires: link.expires,
            signature: link.signature ?? "")
        var googleSaveURL: String?
        if wantsGoogle, !pass.voided, let google { googleSaveURL = try? await google.saveURL(for: pass) }
        let (strings, language) = Self.pageLanguage(files: prepared.files, acceptLanguage: acceptLanguage, table: "pass.strings")
        var page = Page(
            organizationName: strings.localized(json["organizationName"]?.stringValue ?? ""),
            description: strings.localized(json["description"]?.stringValue ?? ""),
            logoText: json["logoText"]?.stringValue.map(strings.localized),
            backgroundColor: json["backgroundColor"]?.stringValue,
            foregroundColor: json["foregroundColor"]?.stringValue,
            logoPNG: logo?.bytes,
            downloadURL: links.downloadURL(of: link),
            relativeDownloadURL: "../../download/" + path,
            voided: pass.voided, googleSaveURL: googleSaveURL)
        page.language = language
        return page
    }
}
