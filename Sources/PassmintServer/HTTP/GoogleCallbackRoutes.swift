import Hummingbird
import NIOCore
import Passmint
import PassmintStore

/// `POST <public-url>/google/callbacks`: Google Wallet's save/delete callbacks (``GoogleCallbackService``), mounted
/// when the service issues for Google with its callback keys. 200 `{"recorded": true}`, or `{"recorded": false,
/// "duplicate": true}` for a callback recorded before; 400, 401 or 404 with the reason, nothing recorded.
struct GoogleCallbackRoutes {
    let core: ServiceCore
    /// A callback is a few hundred bytes.
    static let bodyLimit = 64 * 1024

    func register(on router: Router<ServiceRequestContext>) {
        guard let callbacks = core.googleCallbacks else { return }
        router.post(RouterPath(core.configuration.pathPrefix + "/google/callbacks")) { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: Self.bodyLimit)
            let outcome = try await callbacks.receive(Array(body.readableBytesView))
            let answer: JSONObject = outcome == .duplicate ? ["recorded": false, "duplicate": true] : ["recorded": true]
            return RouteSupport.json(.ok, .object(answer))
        }
    }
}
