import Foundation
import Passmint
import PassmintPreview
import PassmintStore

/// The landing page of an order's link: the same page as a pass's (``LandingPageHTML``), with the merchant's name and
/// logo and the order number.
extension SharingService {
    /// What the landing page of a valid order link shows: the merchant's name and logo, and the order number, in the
    /// language `acceptLanguage` prefers among the order's `<lang>.lproj/order.strings` (as a pass's page).
    func orderPage(_ link: Link, acceptLanguage: String?) async throws -> Page {
        let order = try await pass(for: link, .order)
        guard let links else { throw ServiceFailure.notFound }
        let template = try renderer.templates.order(named: order.template)
        let json = try renderer.orderJSON(order, template: template)
        let merchant = json["merchant"]
        let logoName = merchant?["logo"]?.stringValue.map { $0.hasSuffix(".png") ? String($0.dropLast(4)) : $0 }
        let logo = logoName.flatMap { stem in
            [stem + "@2x.png", stem + ".png"].lazy.compactMap { name in template.files.first { $0.path == name } }.first
        }
        let number = json["orderNumber"]?.stringValue ?? order.serialNumber
        let path = PassLinks.path(
            passTypeIdentifier: link.passTypeIdentifier, serialNumber: link.serialNumber, expires: link.expires,
            signature: link.signature ?? "")
        let (strings, language) = Self.pageLanguage(files: template.files, acceptLanguage: acceptLanguage, table: "order.strings")
        var page = Page(
            organizationName: strings.localized(merchant?["displayName"]?.stringValue ?? ""),
            description: PreviewWords.text("Order", language: language) + " \(number)", logoText: nil,
            backgroundColor: nil, foregroundColor: nil, logoPNG: logo?.bytes, downloadURL: links.downloadURL(of: link),
            relativeDownloadURL: "../../download/" + path, voided: false)
        page.kind = .order
        page.language = language
        return page
    }
}
