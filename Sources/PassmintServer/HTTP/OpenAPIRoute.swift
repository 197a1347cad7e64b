import Foundation
import Hummingbird
import NIOCore

/// `GET /api/v1/openapi.json`: the OpenAPI 3.1 description of the issuing API (the resource `openapi.json`, the one
/// source of it), served without the API key: it holds no secrets, and a client generator or an API console reads it
/// before it is given a key.
struct OpenAPIRoute {
    static let path = "/api/v1/openapi.json"

    /// The document's bytes, read once from the target's resources; nil when the resource bundle is missing.
    static let document: ByteBuffer? = Bundle.module.url(forResource: "openapi", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }.map { ByteBuffer(bytes: $0) }

    func register(on router: Router<ServiceRequestContext>) {
        router.getAndHead(RouterPath(Self.path)) { _, _ in
            guard let document = Self.document else {
                throw ServiceFailure(
                    .internalServerError,
                    "the service's OpenAPI document is missing: passmint_PassmintServer.resources must sit beside the passmint binary")
            }
            return RouteSupport.bytes(document, type: "application/json")
        }
    }
}
