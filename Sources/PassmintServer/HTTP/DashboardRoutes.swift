import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Passmint

/// `/dashboard` (the statistics page, ``DashboardHTML``) for a request with the API key or a login cookie;
/// `/dashboard/login?token=…` (a link `POST /api/v1/dashboard/links` made) sets that cookie and goes to the page.
struct DashboardRoutes {
    let core: ServiceCore

    func register(on router: Router<ServiceRequestContext>, api: RouterGroup<ServiceRequestContext>) {
        router.getAndHead("/dashboard") { request, _ in try await dashboard(request) }
        router.get("/dashboard/login") { request, _ in login(request) }
        api.post("dashboard/links") { _, _ in try link() }
    }

    private static let pageHeaders: HTTPFields = [
        .contentSecurityPolicy: DashboardHTML.contentSecurityPolicy, .cacheControl: "private, no-store",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    private func dashboard(_ request: Request) async throws -> Response {
        guard core.dashboardLogin.allows(authorization: request.headers[.authorization], cookies: request.headers[.cookie]) else {
            let text = """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body>\
                <p>Open a login link to see the statistics: POST /api/v1/dashboard/links with the API key makes one.</p></body></html>
                """
            return RouteSupport.bytes(Array(text.utf8), type: "text/html; charset=utf-8", headers: Self.pageHeaders, status: .unauthorized)
        }
        let query = try StatsRoutes.query(request.uri.queryParameters, defaults: core.stats.defaultQuery())
        let report = try await core.stats.report(query)
        return RouteSupport.bytes(Array(DashboardHTML.html(report).utf8), type: "text/html; charset=utf-8", headers: Self.pageHeaders)
    }

    private func login(_ request: Request) -> Response {
        guard let token = request.uri.queryParameters.get("token"), core.dashboardLogin.isValid(token) else {
            return Response(status: .notFound)
        }
        let secure = core.configuration.publicURL.lowercased().hasPrefix("https:") ? "; Secure" : ""
        let cookie =
            "\(DashboardLogin.cookieName)=\(token); Path=/dashboard; Max-Age=\(core.dashboardLogin.lifetime.components.seconds); "
            + "HttpOnly; SameSite=Strict\(secure)"
        return Response(status: .seeOther, headers: [.location: "/dashboard", .setCookie: cookie, .cacheControl: "no-store"])
    }

    /// A login link: its path, and its URL on the public URL's host.
    private func link() throws -> Response {
        guard let made = core.dashboardLogin.token() else { throw ServiceFailure.unauthorized() }
        let path = "/dashboard/login?token=\(made.token)"
        var origin = ""
        if let url = URL(string: core.configuration.publicURL), let scheme = url.scheme, let host = url.host {
            origin = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        }
        return RouteSupport.json(
            .created,
            ["url": .string(origin + path), "path": .string(path), "expires": .string(made.expires.formatted(Date.ISO8601FormatStyle()))])
    }
}
