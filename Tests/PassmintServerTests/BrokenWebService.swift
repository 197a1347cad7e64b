import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Passmint
import PassmintServer
import PassmintTestSupport
import Synchronization

/// A small pass web service for the checker's tests, in memory, with one pass, that breaks Apple's protocol in the
/// ways ``Breakage`` names (none: it follows the protocol).
final class BrokenWebService: Sendable {
    struct Breakage: OptionSet, Sendable {
        let rawValue: Int
        /// A new registration answers 200 instead of 201.
        static let okForCreated = Breakage(rawValue: 1)
        /// A poll with nothing to list answers 200 with an empty list instead of 204.
        static let okForNoContent = Breakage(rawValue: 2)
        /// The latest version never answers 304.
        static let neverNotModified = Breakage(rawValue: 4)
        /// The poll ignores passesUpdatedSince: every pass is listed for any tag.
        static let ignoresTag = Breakage(rawValue: 8)
        /// Any token, or none, is accepted.
        static let acceptsWrongToken = Breakage(rawValue: 16)
        /// lastUpdated is a JSON number.
        static let numericTag = Breakage(rawValue: 32)
        /// Not a breakage: the tag holds `+`, `:` and spaces, which a device percent-encodes.
        static let tagNeedsEncoding = Breakage(rawValue: 64)
        /// The poll compares passesUpdatedSince as it arrived, percent-encoded, without decoding it.
        static let tagNotDecoded = Breakage(rawValue: 128)
    }

    static let type = "pass.dev.passmint.example"
    static let documentURL = "https://passes.example.test/wallet"
    static let lastModified = "Sat, 28 Nov 2026 10:00:00 GMT"

    let breakage: Breakage
    let serial = "BROKEN-1"
    let token = AuthenticationToken.make()
    /// The poll's one tag: `1`, or with ``Breakage/tagNeedsEncoding`` one a device must encode.
    let tag: String
    let pass: [UInt8]
    private let devices = Mutex<Set<String>>([])

    init(_ breakage: Breakage) throws {
        self.breakage = breakage
        tag = breakage.contains(.tagNeedsEncoding) ? "2026-11-28 10:00:00 +01:00" : "1"
        let template = try PassTemplate(folder: try TestTemplates.write().path)
        let stamp = PassStamp(serialNumber: serial, authenticationToken: token, webServiceURL: Self.documentURL)
        pass = try PassBuilder(identity: try TestTemplates.identity()).sign(
            PassInput(template: template, data: TestTemplates.data, stamp: stamp)
        )
        .archive
    }

    /// The checker's target for the service listening at `port`.
    /// (`personalizes`: the target says the pass holds personalization.json, which this service has no endpoint for.)
    func target(port: Int, personalizes: Bool = false) -> ServiceCheckTarget {
        ServiceCheckTarget(
            kind: .pass, serviceURL: "http://127.0.0.1:\(port)/wallet", token: token, typeIdentifier: Self.type, identifier: serial,
            documentURL: Self.documentURL, personalizes: personalizes)
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        let apple = router.group(RouterPath("/wallet/" + WalletWebService.version))
        func path(_ route: WalletRoute) -> RouterPath { RouterPath(route.template(.pass)) }
        apple.post(path(.register)) { request, context in try await self.register(request, context) }
        apple.get(path(.poll)) { request, context in self.poll(request, context) }
        apple.delete(path(.unregister)) { request, context in
            guard self.authorized(request, context) else { return Response(status: .unauthorized) }
            _ = self.devices.withLock { $0.remove(context.parameters.get(WalletRoute.Parameter.device) ?? "") }
            return Response(status: .ok)
        }
        apple.get(path(.latest)) { request, context in self.latest(request, context) }
        apple.post(path(.log)) { _, _ in Response(status: .ok) }
        return router
    }

    private func authorized(_ request: Request, _ context: BasicRequestContext) -> Bool {
        if breakage.contains(.acceptsWrongToken) { return true }
        return WalletWebService.Kind.pass.presentedToken(request.headers[.authorization]).map(String.init) == token
            && context.parameters.get(WalletRoute.Parameter.serial) == serial
    }

    private func register(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard authorized(request, context) else { return Response(status: .unauthorized) }
        var request = request
        let body = try await request.collectBody(upTo: 4096)
        guard let object = (try? JSONParser.value(Array(body.readableBytesView)))?.objectValue, (try? PushTokenBody(json: object)) != nil
        else {
            return Response(status: .badRequest)
        }
        let device = context.parameters.get(WalletRoute.Parameter.device) ?? ""
        let created = devices.withLock { $0.insert(device).inserted }
        return Response(status: created && !breakage.contains(.okForCreated) ? .created : .ok)
    }

    private func poll(_ request: Request, _ context: BasicRequestContext) -> Response {
        let device = context.parameters.get(WalletRoute.Parameter.device) ?? ""
        let parameter = WalletWebService.Kind.pass.sinceParameter
        let since: String?
        if breakage.contains(.tagNotDecoded) {
            let pairs: [Substring] = (request.uri.query ?? "").split(separator: "&")
            let pair: Substring? = pairs.first { $0.hasPrefix(parameter + "=") }
            since = pair.map { String($0.dropFirst(parameter.count + 1)) }
        } else {
            since = request.uri.queryParameters.get(parameter).map { String($0) }
        }
        let registered = devices.withLock { $0.contains(device) } && context.parameters.get(WalletRoute.Parameter.type) == Self.type
        let changed = since == nil || since != tag || breakage.contains(.ignoresTag)
        guard registered && changed else {
            guard breakage.contains(.okForNoContent) else { return Response(status: .noContent) }
            return json(UpdatedList(kind: .pass, identifiers: [], tag: tag).bytes)
        }
        if breakage.contains(.numericTag) { return json(Array(#"{"serialNumbers":["\#(serial)"],"lastUpdated":1}"#.utf8)) }
        return json(UpdatedList(kind: .pass, identifiers: [serial], tag: tag).bytes)
    }

    private func latest(_ request: Request, _ context: BasicRequestContext) -> Response {
        guard authorized(request, context) else { return Response(status: .unauthorized) }
        if request.headers[.ifModifiedSince] == Self.lastModified && !breakage.contains(.neverNotModified) {
            return Response(status: .notModified, headers: [.lastModified: Self.lastModified])
        }
        return Response(
            status: .ok, headers: [.contentType: BuiltPass.mimeType, .lastModified: Self.lastModified],
            body: .init(byteBuffer: ByteBuffer(bytes: pass)))
    }

    private func json(_ bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
