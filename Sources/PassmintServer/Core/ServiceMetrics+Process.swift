import Foundation
import Passmint
import PassmintStore

extension ServiceMetrics {
    /// What a scrape reads at its moment besides the registry: the build, the process, the three outboxes and the
    /// jobs. Every series is there from the first scrape (0 until something happens), so a dashboard never has a gap.
    struct Snapshot: Sendable {
        var pushes = OutboxStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
        /// Nil while the store is out of reach: its queues are not read then.
        var webhooks: OutboxStatus? = OutboxStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
        /// Jobs this node knows, by state, and the lines they applied.
        var jobs: [UpdateJob.State: Int] = [:]
        var jobLines = 0
        /// Whether the store answered the last probe, and how its pool is used (nil: no pool, SQLite).
        var storeReachable = true
        var connections: StoreConnectionUse?
    }

    static func snapshotText(_ snapshot: Snapshot, now: Date) -> String {
        var text = "# TYPE passmint_build_info gauge\npassmint_build_info{version=\"\(PassmintVersion.current)\"} 1\n"
        text += processText()
        if let webhooks = snapshot.webhooks { text += queueText("passmint_webhook_queue", webhooks, now: now) }
        text += "# TYPE passmint_jobs gauge\n"
        for state in [UpdateJob.State.running, .finished, .failed] {
            text += "passmint_jobs{state=\"\(state.rawValue)\"} \(snapshot.jobs[state] ?? 0)\n"
        }
        text += "# TYPE passmint_job_lines_applied gauge\npassmint_job_lines_applied \(snapshot.jobLines)\n"
        text += "# TYPE passmint_store_reachable gauge\npassmint_store_reachable \(snapshot.storeReachable ? 1 : 0)\n"
        if let pool = snapshot.connections {
            text += "# TYPE passmint_db_pool_connections_max gauge\npassmint_db_pool_connections_max \(pool.maximum)\n"
            text += "# TYPE passmint_db_pool_connections_in_use gauge\npassmint_db_pool_connections_in_use \(pool.inUse)\n"
            text += "# TYPE passmint_db_pool_waiting gauge\npassmint_db_pool_waiting \(pool.waiting)\n"
            text += "# TYPE passmint_db_pool_leases_total counter\npassmint_db_pool_leases_total \(pool.leases)\n"
            text += "# TYPE passmint_db_pool_wait_seconds_total counter\npassmint_db_pool_wait_seconds_total \(pool.waitedSeconds)\n"
        }
        return text
    }

    /// `<name>_depth`, `<name>_due` and `<name>_oldest_seconds` of one outbox.
    static func queueText(_ name: String, _ queue: OutboxStatus, now: Date) -> String {
        let age = queue.oldestEnqueuedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
        return "# TYPE \(name)_depth gauge\n\(name)_depth \(queue.depth)\n# TYPE \(name)_due gauge\n\(name)_due \(queue.due)\n"
            + "# TYPE \(name)_oldest_seconds gauge\n\(name)_oldest_seconds \(age)\n"
    }

    /// The process's CPU time, resident memory, open file descriptors and start time, under Prometheus's standard names.
    static func processText() -> String {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let pages = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ").dropFirst().first
        let resident = (pages.flatMap { Int($0) } ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total \(cpu)\n"
            + "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes \(resident)\n"
            + "# TYPE process_open_fds gauge\nprocess_open_fds \(descriptors)\n"
            + "# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds \(Int(processStart.timeIntervalSince1970))\n"
    }

    static let processStart = Date()

    /// The `# HELP` line of each metric, put before its `# TYPE` line.
    static let help: [String: String] = [
        "passmint_http_requests_total": "Requests the router answered, by route pattern, method and status.",
        "passmint_http_request_duration_seconds": "Time to answer a request the router answered, by route pattern and method.",
        "passmint_registrations_total": "Device registrations, by result (created, existing).",
        "passmint_pass_render_duration_seconds": "Time to render and check a pass.",
        "passmint_pass_sign_duration_seconds": "Time to sign and zip a pass.",
        "passmint_device_answers_from_memory_total": "Device polls and 304s answered from memory, before the router.",
        "passmint_pushes_total": "Pushes sent by this node, by result.",
        "passmint_push_attempts_total": "Push attempts by this node, retries included.",
        "passmint_push_queue_depth": "Pushes owed (the push outbox, all nodes).",
        "passmint_push_queue_oldest_seconds": "Age of the oldest push owed.",
        "passmint_google_updates_total": "Google Wallet object updates by this node, by result.",
        "passmint_google_update_retries_total": "Google Wallet updates that were retries.",
        "passmint_google_update_queue_depth": "Google Wallet updates owed (all nodes).",
        "passmint_google_update_queue_due": "Google Wallet updates owed and due now.",
        "passmint_google_update_queue_oldest_seconds": "Age of the oldest Google Wallet update owed.",
        "passmint_webhook_queue_depth": "Webhook deliveries owed (all nodes).",
        "passmint_webhook_queue_due": "Webhook deliveries owed and due now.",
        "passmint_webhook_queue_oldest_seconds": "Age of the event of the oldest webhook delivery owed.",
        "passmint_build_info": "The running version.",
        "passmint_jobs": "Bulk-change and publish jobs this node knows, by state.",
        "passmint_job_lines_applied": "Lines the jobs this node knows have applied.",
        "passmint_store_reachable": "1 while the store answers the node's probe, 0 while it is out of reach (requests answered 503).",
        "passmint_db_pool_connections_max": "The most PostgreSQL connections this node's pool opens.",
        "passmint_db_pool_connections_in_use": "PostgreSQL connections a request or queue of this node holds now.",
        "passmint_db_pool_waiting":
            "Store calls of this node waiting for a PostgreSQL connection now (all in use: raise the pool or add nodes).",
        "passmint_db_pool_leases_total": "PostgreSQL connections lent to store calls of this node.",
        "passmint_db_pool_wait_seconds_total":
            "Seconds store calls of this node waited for a PostgreSQL connection, in all (divide by the leases for the mean).",
        "process_cpu_seconds_total": "CPU time of the process (user and system).",
        "process_resident_memory_bytes": "Resident memory of the process.",
        "process_open_fds": "Open file descriptors of the process.",
        "process_start_time_seconds": "When the process started, in seconds since the epoch.",
    ]

    /// `text` with a `# HELP` line before every `# TYPE` line that has none.
    static func withHelp(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 4096)
        var previous = Substring("")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), !previous.hasPrefix("# HELP ") {
                let name = line.dropFirst(7).prefix { $0 != " " }
                output += "# HELP \(name) \(help[String(name)] ?? "See docs/service.md.")\n"
            }
            output += line
            output += "\n"
            previous = line
        }
        return String(output.dropLast())
    }
}
