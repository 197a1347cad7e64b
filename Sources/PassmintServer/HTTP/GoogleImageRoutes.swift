import HTTPTypes
import Hummingbird
import Passmint

/// The images Google Wallet fetches (``GoogleImageService``), under the public URL's path, when the service issues
/// for Google Wallet: `google/images/templates/{template}/{sha1}.png` and
/// `google/images/passes/{type}/{serial}/{sha1}.png`. An address is its content, so answers may be cached for a year.
struct GoogleImageRoutes {
    let core: ServiceCore

    func register(on router: Router<ServiceRequestContext>) {
        guard let images = core.google?.images else { return }
        let group = router.group(RouterPath(core.configuration.pathPrefix + "/google/images"))
        group.getAndHead("templates/:template/:file") { _, context in
            let template = context.parameters.get("template") ?? ""
            return Self.png(try await images.templateImage(template: template, sha1: try Self.sha1(context)))
        }
        group.getAndHead("passes/:type/:serial/:file") { _, context in
            guard let type = context.parameters.get("type"), PathComponent.isValid(type),
                let serial = context.parameters.get("serial"), PathComponent.isValid(serial)
            else { throw ServiceFailure.notFound }
            return Self.png(try await images.passImage(passTypeIdentifier: type, serialNumber: serial, sha1: try Self.sha1(context)))
        }
    }

    /// `{sha1}.png`: the 40 lowercase hex digits; 404 otherwise.
    private static func sha1(_ context: ServiceRequestContext) throws(ServiceFailure) -> String {
        let file = context.parameters.get("file") ?? ""
        let digest = file.hasSuffix(".png") ? String(file.dropLast(4)) : ""
        guard digest.utf8.count == 40, digest.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .notFound
        }
        return digest
    }

    private static func png(_ bytes: [UInt8]) -> Response {
        RouteSupport.bytes(
            bytes, type: "image/png",
            headers: [.cacheControl: "public, max-age=31536000, immutable"])
    }
}
