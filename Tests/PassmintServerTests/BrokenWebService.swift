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
        /// A registration with a wrong token, or none, answers 401 but is stored.
        static let storesRefused = Breakage(rawValue: 1 << 8)
        /// A registration body without pushToken is accepted.
        static let acceptsMissingPushToken = Breakage(rawValue: 1 << 9)
        /// Registering again answers 201 instead of 200.
        static let createdAgain = Breakage(rawValue: 1 << 10)
        /// A device with no registration at all gets 404 from the poll (Apple's 2012 sample) instead of 204.
        static let unknownDeviceNotFound = Breakage(rawValue: 1 << 11)
        /// The poll ignores the pass type in its path: the pass is listed for any type.
        static let ignoresType = Breakage(rawValue: 1 << 12)
        /// The latest version is sent as application/octet-stream.
        static let wrongContentType = Breakage(rawValue: 1 << 13)
        /// The latest version has no Last-Modified.
        static let noLastModified = Breakage(rawValue: 1 << 14)
        /// The latest version is signed with another webServiceURL than the one the device holds.
        static let otherWebServiceURL = Breakage(rawValue: 1 << 15)
        /// No log endpoint (404).
        static let noLogEndpoint = Breakage(rawValue: 1 << 16)
        /// Unregistering answers 200 but keeps the registration.
        static let keepsUnregistered = Breakage(rawValue: 1 << 17)
        /// Unregistering a device that is not registered answers 404.
        static let unregisterUnknownNotFound = Breakage(rawValue: 1 << 18)
        /// Unregistering answers 204 instead of 200.
        static let noContentForUnregister = Breakage(rawValue: 1 << 19)
        /// A change (`POST /change`) keeps the poll's tag: the old tag lists nothing.
        static let changeKeepsTag = Breakage(rawValue: 1 << 20)
        /// A change keeps Last-Modified: the old date still gets 304.
        static let changeKeepsLastModified = Breakage(rawValue: 1 << 21)
        /// Only the registration accepts any token, or none.
        static let registersWithWrongToken = Breakage(rawValue: 1 << 22)
        /// Only the latest version is sent for any token, or none.
        static let sendsWithWrongToken = Breakage(rawValue: 1 << 23)
    }

    static let type = "pass.dev.passmint.example"
    static let documentURL = "https://passes.example.test/wallet"
    static let lastModified = "Sat, 28 Nov 2026 10:00:00 GMT"

    let breakage: Breakage
    let serial = "BROKEN-1"
    let token = AuthenticationToken.make()
    /// The poll's tag before a change: `1`, or with ``Breakage/tagNeedsEncoding`` one a device must encode.
    let firstTag: String
    let pass: [UInt8]
    private let devices = Mutex<Set<String>>([])
    /// How many times `POST /change` changed the pass.
    private let changes = Mutex(0)

    init(_ breakage: Breakage) throws {
        self.breakage = breakage
        firstTag = breakage.contains(.tagNeedsEncoding) ? "2026-11-28 10:00:00 +01:00" : "1"
        let template = try PassTemplate(folder: try TestTemplates.write().path)
        let url = breakage.contains(.otherWebServiceURL) ? "https://elsewhere.example.test/wallet" : Self.documentURL
        let stamp = PassStamp(serialNumber: serial, authenticationToken: token, webServiceURL: url)
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

    /// The change command for the service listening at `port`: changes the pass (a new tag and Last-Modified).
    static func changeCommand(port: Int) -> String { "curl -sS -f -X POST http://127.0.0.1:\(port)/change" }

    /// The poll's tag now: a change gives a new one (unless ``Breakage/changeKeepsTag``).
    var tag: String {
        let changes = changes.withLock { $0 }
        return changes == 0 || breakage.contains(.changeKeepsTag) ? firstTag : firstTag + ".\(changes)"
    }

    /// The latest version's Last-Modified now: an hour later after a change (unless ``Breakage/changeKeepsLastModified``).
    var lastModified: String {
        changes.withLock { $0 } == 0 || breakage.contains(.changeKeepsLastModified) ? Self.lastModified : "Sat, 28 Nov 2026 11:00:00 GMT"
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        let apple = router.group(RouterPath("/wallet/" + WalletWebService.version))
        func path(_ route: WalletRoute) -> RouterPath { RouterPath(route.template(.pass)) }
        apple.post(path(.register)) { request, context in try await self.register(request, context) }
        apple.get(path(.poll)) { request, context in self.poll(request, context) }
        apple.delete(path(.unregister)) { request, context in self.unregister(request, context) }
        apple.get(path(.latest)) { request, context in self.latest(request, context) }
        if !breakage.contains(.noLogEndpoint) { apple.post(path(.log)) { _, _ in Response(status: .ok) } }
        router.post("/change") { _, _ in
            self.changes.withLock { $0 += 1 }
            return Response(status: .ok)
        }
        return router
    }

    /// The token is the pass's (`accepting`: a breakage that accepts any token on this route).
    private func authorized(_ request: Request, _ context: BasicRequestContext, accepting: Breakage = []) -> Bool {
        if breakage.contains(.acceptsWrongToken) || !breakage.isDisjoint(with: accepting) { return true }
        return WalletWebService.Kind.pass.presentedToken(request.headers[.authorization]).map(String.init) == token
            && context.parameters.get(WalletRoute.Parameter.serial) == serial
    }

    private func register(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let device = context.parameters.get(WalletRoute.Parameter.device) ?? ""
        guard authorized(request, context, accepting: .registersWithWrongToken) else {
            if breakage.contains(.storesRefused) { devices.withLock { _ = $0.insert(device) } }
            return Response(status: .unauthorized)
        }
        var request = request
        let body = try await request.collectBody(upTo: 4096)
        let object = (try? JSONParser.value(Array(body.readableBytesView)))?.objectValue
        guard breakage.contains(.acceptsMissingPushToken) || object.map({ (try? PushTokenBody(json: $0)) != nil }) == true else {
            return Response(status: .badRequest)
        }
        let created = devices.withLock { $0.insert(device).inserted }
        return Response(status: (created && !breakage.contains(.okForCreated)) || breakage.contains(.createdAgain) ? .created : .ok)
    }

    private func unregister(_ request: Request, _ context: BasicRequestContext) -> Response {
        guard authorized(request, context) else { return Response(status: .unauthorized) }
        let device = context.parameters.get(WalletRoute.Parameter.device) ?? ""
        let removed = devices.withLock { breakage.contains(.keepsUnregistered) ? $0.contains(device) : $0.remove(device) != nil }
        if !removed && breakage.contains(.unregisterUnknownNotFound) { return Response(status: .notFound) }
        return Response(status: removed && breakage.contains(.noContentForUnregister) ? .noContent : .ok)
    }

    private func poll(_ request: Request, _ context: BasicRequestContext) -> Response {
        let device = context.parameters.get(WalletRoute.Parameter.device) ?? ""
        let known = devices.withLock { $0.contains(device) }
        if !known && breakage.contains(.unknownDeviceNotFound) { return Response(status: .notFound) }
        let parameter = WalletWebService.Kind.pass.sinceParameter
        let since: String?
        if breakage.contains(.tagNotDecoded) {
            let pairs: [Substring] = (request.uri.query ?? "").split(separator: "&")
            let pair: Substring? = pairs.first { $0.hasPrefix(parameter + "=") }
            since = pair.map { String($0.dropFirst(parameter.count + 1)) }
        } else {
            since = request.uri.queryParameters.get(parameter).map { String($0) }
        }
        let registered = known && (context.parameters.get(WalletRoute.Parameter.type) == Self.type || breakage.contains(.ignoresType))
        let tag = tag
        let changed = since == nil || since != tag || breakage.contains(.ignoresTag)
        guard registered && changed else {
            guard breakage.contains(.okForNoContent) else { return Response(status: .noContent) }
            return json(UpdatedList(kind: .pass, identifiers: [], tag: tag).bytes)
        }
        if breakage.contains(.numericTag) { return json(Array(#"{"serialNumbers":["\#(serial)"],"lastUpdated":1}"#.utf8)) }
        return json(UpdatedList(kind: .pass, identifiers: [serial], tag: tag).bytes)
    }

    private func latest(_ request: Request, _ context: BasicRequestContext) -> Response {
        guard authorized(request, context, accepting: .sendsWithWrongToken) else { return Response(status: .unauthorized) }
        let lastModified = lastModified
        if request.headers[.ifModifiedSince] == lastModified && !breakage.contains(.neverNotModified) {
            return Response(status: .notModified, headers: [.lastModified: lastModified])
        }
        var headers: HTTPFields = [.contentType: breakage.contains(.wrongContentType) ? "application/octet-stream" : BuiltPass.mimeType]
        if !breakage.contains(.noLastModified) { headers[.lastModified] = lastModified }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: pass)))
    }

    private func json(_ bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
