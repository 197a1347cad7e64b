import Hummingbird
import Passmint

/// `GET /api/v1/templates`: the templates the service issues from, each with its pass type and whether it can issue
/// (`passmint update` takes the pass type from here when there is one).
struct TemplateRoutes {
    let core: ServiceCore

    /// Adds the route to `api`, the `/api/v1` group behind ``APIKeyMiddleware`` (``buildRouter(core:)``).
    func register(on api: RouterGroup<ServiceRequestContext>) {
        api.get("templates") { _, _ in
            let listings = core.templates.listings(builder: PassBuilder(identities: core.configuration.identities))
            let templates: [JSONValue] = listings.map { listing in
                [
                    "name": .string(listing.name), "passTypeIdentifier": listing.passTypeIdentifier.map(JSONValue.string) ?? .null,
                    "problem": listing.problem.map(JSONValue.string) ?? .null,
                ]
            }
            let types = core.configuration.identities.passTypeIdentifiers.map(JSONValue.string)
            return RouteSupport.json(.ok, ["templates": .array(templates), "passTypeIdentifiers": .array(types)])
        }
    }
}
