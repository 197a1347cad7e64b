import Hummingbird
import NIOCore

/// `GET /health`: 200 `ok` while the server takes requests (liveness: the process is not stuck). `GET /ready`: 200
/// `ready` while the store answers too, 503 `store out of reach` otherwise (readiness: send this node traffic), from
/// a probe of the store run now, within its timeout.
struct HealthRoute {
    let reachability: StoreReachability

    func register(on router: Router<ServiceRequestContext>) {
        router.getAndHead("/health") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.getAndHead("/ready") { _, _ in
            let ready = await reachability.probe()
            return Response(
                status: ready ? .ok : .serviceUnavailable,
                headers: ready ? [.contentType: "text/plain"] : [.contentType: "text/plain", .retryAfter: "1"],
                body: .init(byteBuffer: ByteBuffer(string: ready ? "ready\n" : "store out of reach\n")))
        }
    }
}
