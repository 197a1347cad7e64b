import Hummingbird
import NIOCore
import PassmintStore

/// `GET /metrics`: Prometheus's text format, behind the API key or the read-only metrics token
/// (`PASSMINT_METRICS_TOKEN`, so that Prometheus never holds the admin key; scrape with `authorization: credentials`).
struct MetricsRoute {
    let core: ServiceCore

    func register(on router: Router<ServiceRequestContext>) {
        let keys = [core.configuration.apiKey, core.configuration.metricsToken].compactMap { $0 }
        router.group("/metrics").add(middleware: APIKeyMiddleware(apiKeys: keys)).get { _, _ in
            // While the store is out of reach the queues (in the store) are left out, and the rest still scrapes.
            let reachable = core.reachability.isReachable
            var google: (statistics: GoogleUpdateStatistics, queue: OutboxStatus)?
            if reachable, let updates = core.googleUpdates { google = (updates.statistics, try await updates.status()) }
            var snapshot = ServiceMetrics.Snapshot()
            snapshot.storeReachable = reachable
            snapshot.connections = core.store.connectionUse
            snapshot.webhooks = reachable ? try await core.webhooks.queueStatus() : nil
            for job in core.jobs.jobs() {
                snapshot.jobs[job.state, default: 0] += 1
                snapshot.jobLines += job.done
            }
            let text = core.metrics.scrape(
                pushes: core.pushQueue.statistics, queue: reachable ? try await core.pushQueue.status() : nil,
                fromMemory: core.deviceReads.fastPathCounts,
                google: google, snapshot: snapshot)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}
