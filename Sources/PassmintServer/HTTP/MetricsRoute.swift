import Hummingbird
import NIOCore
import PassmintStore

/// `GET /metrics`: Prometheus's text format, behind the API key (scrape with `authorization: credentials`).
struct MetricsRoute {
    let core: ServiceCore

    func register(on router: Router<ServiceRequestContext>) {
        router.group("/metrics").add(middleware: APIKeyMiddleware(apiKey: core.configuration.apiKey)).get { _, _ in
            var google: (statistics: GoogleUpdateStatistics, queue: PushQueueStatus)?
            if let updates = core.googleUpdates { google = (updates.statistics, try await updates.status()) }
            let text = core.metrics.scrape(
                pushes: core.pushQueue.statistics, queue: try await core.pushQueue.status(), fromMemory: core.deviceReads.fastPathCounts,
                google: google)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}
