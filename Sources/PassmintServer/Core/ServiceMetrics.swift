import Foundation
import Metrics
import PassmintStore
package import Prometheus
import Synchronization

/// What `GET /metrics` shows, in Prometheus's text format: swift-metrics timers and counters recorded into this
/// service's own registry (swift-prometheus), and the counts other parts keep, read at scrape time.
package final class ServiceMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Request handles by route, method and status; routes are the router's patterns, so the set is bounded.
    private let requestHandleCache = Mutex<[RequestKey: RequestHandles]>([:])

    package init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .seconds(2.5), .seconds(5),
        ]
        self.factory = factory
    }

    /// One HTTP request the router answered: `route` is the matched path pattern (`/api/v1/passes/{type}/{serial}`).
    func request(route: String, method: String, status: Int, duration: Duration) {
        let method = Self.methods.contains(method) ? method : "OTHER"
        let handles = requestHandles(RequestKey(route: route, method: method, status: status))
        handles.counter.increment()
        handles.timer.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// The counter and timer of one route, method and status, made once: making them asks the registry, which
    /// validates and hashes the names and labels on every call.
    private func requestHandles(_ key: RequestKey) -> RequestHandles {
        if let handles = requestHandleCache.withLock({ $0[key] }) { return handles }
        let handles = RequestHandles(
            counter: Metrics.Counter(
                label: "passmint_http_requests_total",
                dimensions: [("route", key.route), ("method", key.method), ("status", String(key.status))], factory: factory),
            timer: Metrics.Timer(
                label: "passmint_http_request_duration_seconds", dimensions: [("route", key.route), ("method", key.method)],
                factory: factory))
        requestHandleCache.withLock { $0[key] = handles }
        return handles
    }

    /// Methods counted by name; any other the HTTP parser lets through (WebDAV's, `PURGE`, …) is counted as `OTHER`,
    /// so that a scanner adds at most one label.
    private static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    private struct RequestKey: Hashable, Sendable {
        var route: String
        var method: String
        var status: Int
    }

    private struct RequestHandles: Sendable {
        let counter: Metrics.Counter
        let timer: Metrics.Timer
    }

    /// A device registered: `created` (201) or `existing` (200).
    func registration(_ result: String) {
        Counter(label: "passmint_registrations_total", dimensions: [("result", result)], factory: factory).increment()
    }

    /// Rendering and checking a pass (`issue`) or signing and zipping it (`sign`).
    func time(_ stage: String, _ duration: Duration) {
        Timer(label: "passmint_pass_\(stage)_duration_seconds", dimensions: [], factory: factory)
            .recordNanoseconds(Self.nanoseconds(duration))
    }

    /// The whole scrape: the registry, then the counts read now (the Google update queue's when there is one).
    func scrape(
        pushes: PushStatistics, queue: OutboxStatus?, fromMemory: (polls: Int, notModified: Int),
        google: (statistics: GoogleUpdateStatistics, queue: OutboxStatus)? = nil, snapshot: Snapshot = Snapshot(),
        now: Date = Date()
    ) -> [UInt8] {
        var output: [UInt8] = []
        registry.emit(into: &output)
        var text = String(decoding: output, as: UTF8.self)
        text += "# TYPE passmint_device_answers_from_memory_total counter\n"
        text += "passmint_device_answers_from_memory_total{answer=\"poll\"} \(fromMemory.polls)\n"
        text += "passmint_device_answers_from_memory_total{answer=\"not_modified\"} \(fromMemory.notModified)\n"
        text += Self.byResult(
            "passmint_pushes_total", [("delivered", pushes.delivered), ("unregistered", pushes.unregistered), ("failed", pushes.failed)])
        text += "# TYPE passmint_push_attempts_total counter\npassmint_push_attempts_total \(pushes.attempts)\n"
        if let queue {
            text += "# TYPE passmint_push_queue_depth gauge\npassmint_push_queue_depth \(queue.depth)\n"
            let age = queue.oldestEnqueuedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
            text += "# TYPE passmint_push_queue_oldest_seconds gauge\npassmint_push_queue_oldest_seconds \(age)\n"
        }
        if case (let statistics, let queue)? = google {
            // The Google update queue's part: updates by what became of them, those that were retries, and the outbox.
            text += Self.byResult(
                "passmint_google_updates_total",
                [
                    ("inserted", statistics.inserted), ("patched", statistics.patched), ("unchanged", statistics.unchanged),
                    ("failed", statistics.failed),
                ])
            text += "# TYPE passmint_google_update_retries_total counter\npassmint_google_update_retries_total \(statistics.retried)\n"
            text += Self.queueText("passmint_google_update_queue", queue, now: now)
        }
        text += Self.snapshotText(snapshot, now: now)
        return Array(Self.withHelp(text).utf8)
    }

    /// A counter `name` by `result` label.
    private static func byResult(_ name: String, _ counts: [(result: String, count: Int)]) -> String {
        counts.reduce("# TYPE \(name) counter\n") { $0 + "\(name){result=\"\($1.result)\"} \($1.count)\n" }
    }

    /// The latency histogram of every route the router has, made at start so that each scrapes (empty) before its
    /// first request; `routes` are the router's patterns and methods.
    func registerRoutes(_ routes: [(route: String, method: String)]) {
        for (route, method) in routes {
            _ = Metrics.Timer(
                label: "passmint_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
        }
    }

    /// The series that would otherwise appear only on first use, made at start so that they scrape as 0 until then.
    func registerAtStart() {
        for result in ["created", "existing"] {
            _ = Counter(label: "passmint_registrations_total", dimensions: [("result", result)], factory: factory)
        }
        for stage in ["render", "sign"] {
            _ = Timer(label: "passmint_pass_\(stage)_duration_seconds", dimensions: [], factory: factory)
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
