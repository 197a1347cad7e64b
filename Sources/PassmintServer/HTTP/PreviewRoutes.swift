import HTTPTypes
import Hummingbird
import NIOCore
import Passmint
import PassmintPreview

/// Preview pages under `/api/v1` (behind ``APIKeyMiddleware``): `GET passes/{type}/{serial}/preview`, and
/// `GET`/`POST templates/{name}/preview` (sample data, or the posted JSON object of data). Query: `lang`, `side`
/// (front, back, both), `watch=false`, `ios27=true`.
struct PreviewRoutes {
    let core: ServiceCore

    /// Adds the routes to `api`, the `/api/v1` group behind ``APIKeyMiddleware`` (``buildRouter(core:)``).
    func register(on api: RouterGroup<ServiceRequestContext>) {
        api.getAndHead("passes/:type/:serial/preview") { request, context in
            let type = try RouteSupport.component("type", context)
            let serial = try RouteSupport.component("serial", context)
            let options = try Self.options(request)
            return Self.page(try await core.previews.pass(passTypeIdentifier: type, serialNumber: serial, options: options))
        }
        api.getAndHead("templates/:name/preview") { request, context in
            let name = context.parameters.get("name") ?? ""
            return Self.page(try await core.previews.template(named: name, data: nil, options: try Self.options(request)))
        }
        api.post("templates/:name/preview") { request, context in
            let name = context.parameters.get("name") ?? ""
            let data = try await RouteSupport.jsonObject(request, limit: core.configuration.maxBodySize)
            return Self.page(try await core.previews.template(named: name, data: data, options: try Self.options(request)))
        }
    }

    /// `Content-Security-Policy` of a preview: the page's own inline styles and `data:` images, nothing else (no
    /// script, no request to anywhere), as the page's `<meta>` says, plus what only a header can say.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func page(_ html: String) -> Response {
        RouteSupport.bytes(
            Array(html.utf8), type: "text/html; charset=utf-8",
            headers: [
                .cacheControl: "no-store", .contentSecurityPolicy: contentSecurityPolicy,
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ])
    }

    /// `?lang=fr&side=back&watch=false`; 400 for a side that is not front, back or both.
    static func options(_ request: Request) throws(ServiceFailure) -> PassPreview.Options {
        let query = request.uri.queryParameters
        var options = PassPreview.Options(language: query.get("lang"))
        if let side = query.get("side") {
            guard let chosen = PassPreview.Side(rawValue: side) else { throw .badRequest("side must be front, back or both") }
            options.side = chosen
        }
        options.showsWatch = query.get("watch") != "false"
        options.iOS27Barcodes = query.get("ios27") == "true"
        return options
    }
}
