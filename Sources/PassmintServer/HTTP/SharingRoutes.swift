import HTTPTypes
import Hummingbird
import NIOCore
import Passmint
import PassmintPreview
import PassmintStore

/// The public links of passes (``PassLinks``), under the public URL's path: `download/<type>/<serial>` answers the
/// signed pass, `add/<type>/<serial>` its "Add to Apple Wallet" page, `google/save/<type>/<serial>` a redirect to its
/// "Add to Google Wallet" link. A type beginning with `order.` names a Wallet order (``SharingService``): the
/// signed `.order` and its page. The page is in the language the request's `Accept-Language` prefers among the pass's
/// own (``SharingService/pageLanguage(files:acceptLanguage:table:)``). Anything wrong answers the same bare 404; a
/// valid link to an erased pass 410 (the add page as a page saying so), and so do a voided pass's download and page.
struct SharingRoutes {
    let core: ServiceCore

    func register(on router: Router<ServiceRequestContext>) {
        let prefix = core.configuration.pathPrefix
        router.group(RouterPath(prefix + "/download")).getAndHead(":type/:serial") { request, context in
            try await download(request, context)
        }
        router.group(RouterPath(prefix + "/add")).getAndHead(":type/:serial") { request, context in try await page(request, context) }
        router.group(RouterPath(prefix + "/google/save")).getAndHead(":type/:serial") { request, context in
            let saveURL = try await core.sharing.googleSaveURL(try link(request, context))
            return Response(status: .seeOther, headers: [.location: saveURL, .cacheControl: "private, no-cache"])
        }
    }

    /// The link the request presents; 404 when a path component is not one the service makes.
    private func link(_ request: Request, _ context: ServiceRequestContext) throws(ServiceFailure) -> SharingService.Link {
        guard let type = context.parameters.get("type"), PathComponent.isValid(type),
            let serial = context.parameters.get("serial"), PathComponent.isValid(serial)
        else { throw .notFound }
        let query = request.uri.queryParameters
        return SharingService.Link(
            passTypeIdentifier: type, serialNumber: serial, expires: query.get("expires"), signature: query.get("signature"))
    }

    private func download(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let (pass, archive) = try await core.sharing.download(try link(request, context))
        let kind = WalletWebService.Kind(typeIdentifier: pass.passTypeIdentifier)
        var name = SerialFileName.fileName(for: pass.serialNumber)
        if kind == .order { name = name.dropLast(".pkpass".count) + "." + BuiltOrder.fileExtension }
        return RouteSupport.bytes(
            archive, type: kind.mimeType,
            headers: [
                .contentDisposition: "attachment; filename=\"\(name)\"",
                .cacheControl: "private, no-cache", .lastModified: HTTPDate.string(pass.updatedAt),
            ])
    }

    private func page(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let platform = LandingPlatform(userAgent: request.headers[.userAgent])
        let presented = try link(request, context)
        let languages = request.headers[.acceptLanguage]
        let page: SharingService.Page
        do {
            page = try await core.sharing.page(presented, acceptLanguage: languages, google: platform != .apple)
        } catch let failure as ServiceFailure where failure.status == .gone {
            return Self.html(LandingPageHTML.gone(), status: .gone)
        }
        let qrCode: QRCode
        var googleQRCode: QRCode?
        do {
            qrCode = try QRCode(page.downloadURL)
            if platform == .desktop, let url = page.googleSaveURL { googleQRCode = try QRCode(url) }
        } catch {
            throw ServiceFailure.unprocessable(error.message)
        }
        let html = LandingPageHTML.html(page, qrCode: qrCode, platform: platform, googleQRCode: googleQRCode)
        return Self.html(html, status: page.voided ? .gone : .ok)
    }

    /// A page of the service's, with the landing page's headers.
    private static func html(_ html: String, status: HTTPResponse.Status) -> Response {
        RouteSupport.bytes(
            Array(html.utf8), type: "text/html; charset=utf-8",
            headers: [
                // The page differs by platform and by language: a cache keys it by both headers.
                .vary: "User-Agent, Accept-Language",
                .contentSecurityPolicy: LandingPageHTML.contentSecurityPolicy, .cacheControl: "private, no-cache",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ], status: status)
    }
}
