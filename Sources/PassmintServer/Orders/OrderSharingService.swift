import Foundation
import Passmint
import PassmintPreview
public import PassmintStore

/// What a person holding an order's public link gets: the signed `.order`, or what its "Add to Apple Wallet" page
/// shows. The links are those of passes (``PassLinks``, the same secret and lifetime) with the order type identifier
/// and the order identifier in place of the pass type and the serial: `/download/order.…/<id>`, `/add/order.…/<id>`.
/// A link that is wrong, expired or for an order that is not there answers the same 404, saying nothing more.
public struct OrderSharingService: Sendable {
    /// nil when the service has no link secret: then orders have no links, and every order link answers 404.
    let links: PassLinks?
    let issuing: OrderService
    let renderer: OrderRenderer

    /// The order a valid link names.
    func order(for link: SharingService.Link) async throws -> StoredPass {
        guard let links,
            links.isValid(
                passTypeIdentifier: link.passTypeIdentifier, serialNumber: link.serialNumber, expires: link.expires,
                signature: link.signature),
            let order = try await issuing.order(link.passTypeIdentifier, link.serialNumber)
        else { throw ServiceFailure.notFound }
        return order
    }

    /// The signed `.order` (its current version) a valid link names, and the order.
    public func download(_ link: SharingService.Link) async throws -> (order: StoredPass, archive: [UInt8]) {
        let order = try await order(for: link)
        return (order, try renderer.build(order).archive)
    }

    /// What the landing page of a valid link shows: the merchant's name and logo, and the order number, in the language
    /// `acceptLanguage` prefers among the order's `<lang>.lproj/order.strings` (as a pass's page).
    public func page(_ link: SharingService.Link, acceptLanguage: String? = nil) async throws -> SharingService.Page {
        let order = try await order(for: link)
        guard let links else { throw ServiceFailure.notFound }
        let template = try renderer.templates.template(named: order.template)
        let json = try renderer.orderJSON(order, data: OrderRenderer.data(order.dataJSON), template: template)
        let merchant = json["merchant"]
        let logoName = merchant?["logo"]?.stringValue.map { $0.hasSuffix(".png") ? String($0.dropLast(4)) : $0 }
        let logo = logoName.flatMap { stem in
            [stem + "@2x.png", stem + ".png"].lazy.compactMap { name in template.files.first { $0.path == name } }.first
        }
        let number = json["orderNumber"]?.stringValue ?? order.serialNumber
        let path = PassLinks.path(
            passTypeIdentifier: link.passTypeIdentifier, serialNumber: link.serialNumber, expires: link.expires,
            signature: link.signature ?? "")
        let (strings, language) = SharingService.pageLanguage(
            files: template.files, acceptLanguage: acceptLanguage, table: "order.strings")
        var page = SharingService.Page(
            organizationName: strings.localized(merchant?["displayName"]?.stringValue ?? ""),
            description: PreviewWords.text("Order", language: language) + " \(number)", logoText: nil,
            backgroundColor: nil, foregroundColor: nil, logoPNG: logo?.bytes, downloadURL: links.downloadURL(of: link),
            relativeDownloadURL: "../../download/" + path, voided: false)
        page.kind = .order
        page.language = language
        return page
    }
}
