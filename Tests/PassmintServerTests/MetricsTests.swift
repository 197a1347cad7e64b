import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintServer
import PassmintTestSupport
import Testing

/// `GET /metrics`, scraped after a device's life: requests by route and status with latencies, registrations,
/// answers from memory, render and signing times, pushes by outcome, the queue.
@Suite struct MetricsTests {
    @Test func aScrapeShowsWhatTheServiceDid() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.live) { client in
                let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]
                let serial = unique("M")
                let issued = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: bearer, body: try ServiceHarness.issueBody(serial: serial))
                #expect(issued.status == .created)
                let token = try #require(try JSONParser.value(Array(issued.body.readableBytesView))["authenticationToken"]?.stringValue)
                let type = ServiceHarness.passType
                try await client.execute(
                    uri: "/wallet/v1/devices/phone-1/registrations/\(type)/\(serial)", method: .post,
                    headers: [.authorization: "ApplePass \(token)"], body: ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#)
                ) { #expect($0.status == .created) }
                for _ in 0..<3 {  // the first goes to the store, the others are answered from memory
                    try await client.execute(uri: "/wallet/v1/devices/phone-1/registrations/\(type)", method: .get) {
                        #expect($0.status == .ok)
                    }
                }
                try await client.execute(
                    uri: "/api/v1/passes/\(type)/\(serial)", method: .patch, headers: bearer,
                    body: ByteBuffer(string: #"{"data":{"points":5}}"#)
                ) { #expect($0.status == .ok) }
                try await service.pushQueue.drain()

                try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .unauthorized) }
                let scrape = try await client.execute(uri: "/metrics", method: .get, headers: bearer)
                #expect(scrape.status == .ok)
                let text = String(buffer: scrape.body)
                let lines = text.split(separator: "\n").map(String.init)
                func value(_ name: String, _ labels: [String] = []) -> Double? {
                    lines.first { $0.hasPrefix(name) && labels.allSatisfy($0.contains) }.flatMap { $0.split(separator: " ").last }
                        .flatMap { Double($0) }
                }
                #expect(
                    value("passmint_http_requests_total", [#"route="/api/v1/passes""#, #"method="POST""#, #"status="201""#]) == 1, "\(text)"
                )
                #expect(value("passmint_http_requests_total", [#"method="PATCH""#, #"status="200""#]) == 1)
                #expect(value("passmint_http_requests_total", [#"route="/metrics""#, #"status="401""#]) == 1)
                #expect(value("passmint_http_request_duration_seconds_count", [#"route="/api/v1/passes""#]) == 1)
                #expect(text.contains("passmint_http_request_duration_seconds_bucket"))
                #expect(value("passmint_registrations_total", [#"result="created""#]) == 1)
                #expect(value("passmint_device_answers_from_memory_total", [#"answer="poll""#]) == 2)
                #expect((value("passmint_pass_render_duration_seconds_count") ?? 0) >= 2, "issue and update rendered")
                #expect((value("passmint_pass_sign_duration_seconds_count") ?? 0) >= 2)
                #expect(value("passmint_pushes_total", [#"result="delivered""#]) == 1)
                #expect(value("passmint_push_queue_depth") == 0)
                #expect(value("passmint_push_queue_oldest_seconds") == 0)
                #expect(!text.contains("passmint_google_"), "no Google account, no Google series")
            }
        }
    }

    /// Methods other than the seven the service answers (WebDAV's and others the HTTP parser knows) share the label
    /// OTHER, so that a scanner adds at most one label to the scrape.
    @Test func unknownMethodsShareOneLabel() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.live) { client in
                for token in ["PROPFIND", "MKCOL", "PURGE", "LOCK"] {
                    let method = try #require(HTTPRequest.Method(token))
                    _ = try await client.execute(uri: "/health", method: method)
                }
                let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
                let text = String(buffer: try await client.execute(uri: "/metrics", method: .get, headers: bearer).body)
                let otherLines = text.split(separator: "\n").filter { line in
                    line.hasPrefix("passmint_http_requests_total") && line.contains(#"method="OTHER""#)
                }
                let counts: [Double] = otherLines.compactMap { line in line.split(separator: " ").last.flatMap { Double($0) } }
                let total: Double = counts.reduce(0, +)
                #expect(total == 4, "\(text)")
                #expect(!text.contains("PROPFIND") && !text.contains("PURGE"))
            }
        }
    }

    /// What an operator's Prometheus needs (issue 39): a read-only token that opens /metrics and nothing else; a
    /// `# HELP` line for every metric; the build, the process, the three outboxes and the jobs; series made at start,
    /// so that a fresh node scrapes them as 0.
    @Test func aReadOnlyTokenScrapesEveryMetricWithItsHelp() async throws {
        try await withStore(.sqlite) { store in
            var configuration = try ServiceHarness.configuration()
            configuration.metricsToken = "metrics-token-0123456789"
            let service = ServiceCore(configuration: configuration, store: store, push: RecordingPushSender(), logger: Logger(label: "m"))
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let token: HTTPFields = [.authorization: "Bearer metrics-token-0123456789"]
                let scrape = try await client.execute(uri: "/metrics", method: .get, headers: token)
                #expect(scrape.status == .ok)
                #expect(try await client.execute(uri: "/api/v1/templates", method: .get, headers: token).status == .unauthorized)
                let text = String(buffer: scrape.body)
                for series in [
                    "passmint_build_info{version=\"\(PassmintVersion.current)\"} 1", "process_resident_memory_bytes ",
                    "process_open_fds ", "process_cpu_seconds_total ", "passmint_webhook_queue_depth 0", "passmint_push_queue_depth 0",
                    "passmint_jobs{state=\"running\"} 0", "passmint_registrations_total{result=\"created\"} 0",
                    "passmint_store_reachable 1",
                    // Every route's latency histogram, before its first request.
                    #"passmint_http_request_duration_seconds_count{route="/ready",method="GET"} 0"#,
                    #"passmint_http_request_duration_seconds_count{route="/api/v1/bundles",method="POST"} 0"#,
                ] {
                    #expect(text.contains(series), "\(series)")
                }
                let lines = text.split(separator: "\n")
                for (index, line) in lines.enumerated() where line.hasPrefix("# TYPE ") {
                    let name = line.dropFirst(7).prefix { $0 != " " }
                    #expect(index > 0 && lines[index - 1].hasPrefix("# HELP \(name) "), "\(name) has no HELP line")
                }
            }
        }
    }
}
