import Foundation
import PassmintStore

extension ServiceMetrics {
    /// The Google update queue's part of the scrape (when the service has a Google account): updates by what became
    /// of them, those that were retries, and the outbox (owed, due now, the oldest's wait).
    static func googleText(statistics: GoogleUpdateStatistics, queue: OutboxStatus, now: Date) -> String {
        var text = "# TYPE passmint_google_updates_total counter\n"
        let results = [
            ("inserted", statistics.inserted), ("patched", statistics.patched), ("unchanged", statistics.unchanged),
            ("failed", statistics.failed),
        ]
        for (result, count) in results {
            text += "passmint_google_updates_total{result=\"\(result)\"} \(count)\n"
        }
        text += "# TYPE passmint_google_update_retries_total counter\npassmint_google_update_retries_total \(statistics.retried)\n"
        text += "# TYPE passmint_google_update_queue_depth gauge\npassmint_google_update_queue_depth \(queue.depth)\n"
        text += "# TYPE passmint_google_update_queue_due gauge\npassmint_google_update_queue_due \(queue.due)\n"
        let age = queue.oldestEnqueuedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
        text += "# TYPE passmint_google_update_queue_oldest_seconds gauge\npassmint_google_update_queue_oldest_seconds \(age)\n"
        return text
    }
}
