import Hummingbird
import NIOCore

/// `GET /health`: 200 `ok` while the server takes requests.
struct HealthRoute {
    func register(on router: Router<ServiceRequestContext>) {
        router.getAndHead("/health") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
    }
}
