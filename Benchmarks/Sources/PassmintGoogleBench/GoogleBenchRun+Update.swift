import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1
import PassmintTestSupport

extension GoogleBenchRun {
    /// One bulk update (new points for every pass), uploaded at once; measured until the Google outbox is empty.
    func update(ceiling: GoogleCeiling) async throws -> GoogleBenchResult {
        var upload: [UInt8] = []
        for (index, serial) in serials.enumerated() {
            upload += Array(
                #"{"passTypeIdentifier":"\#(Self.passType)","serialNumber":"\#(serial)","data":{"points":\#(20_000 + index)}}"#.utf8)
            upload.append(0x0A)
        }
        let start = ContinuousClock.now
        let cpuBefore = (serve: ProcessCPU.seconds(service.process.processIdentifier), standIn: ProcessCPU.seconds())
        let accepted = try await service.http.one(service.api(.POST, "/api/v1/updates", body: upload))
        guard accepted.status == 202, let answer = try JSONSerialization.jsonObject(with: Data(accepted.body)) as? [String: Any],
            let id = answer["id"] as? String
        else { throw BenchError("the upload answered \(accepted.status): \(accepted.text)") }

        var committed: ContinuousClock.Instant?
        var drained: ContinuousClock.Instant?
        var figures: [String: Double] = [:]
        while drained == nil, ContinuousClock.now - start < .seconds(1800) {
            try await Task.sleep(for: .milliseconds(100))
            if committed == nil {
                let job = try await service.http.one(service.api(.GET, "/api/v1/jobs/\(id)"))
                let state = (try? JSONSerialization.jsonObject(with: Data(job.body)) as? [String: Any])?["state"] as? String
                if state == "failed" { throw BenchError("the update job failed: \(job.text)") }
                if state == "finished" { committed = .now }
            }
            figures = try await service.metrics()
            if committed != nil, figures["passmint_google_update_queue_depth"] == 0 { drained = .now }
        }
        let spent = (
            serve: ProcessCPU.since(cpuBefore.serve, service.process.processIdentifier),
            standIn: ProcessCPU.since(cpuBefore.standIn)
        )
        // What the stand-in received since the ceiling: the objects patched (and when), and what it refused.
        let received = standIn.received
        let patches = received.filter { $0.method == "PATCH" && $0.status == 200 && $0.path.contains("Object/") }
        let refused = Dictionary(
            received.filter { $0.status >= 400 }.map {
                ("\($0.status) \($0.method) \($0.path.split(separator: "/").prefix(3).joined(separator: "/"))", 1)
            },
            uniquingKeysWith: +)
        let patchTimes = patches.map(\.at)
        return GoogleBenchResult(
            passes: serials.count, ceiling: ceiling, commitSeconds: ((committed ?? .now) - start).seconds,
            drainSeconds: ((drained ?? .now) - start).seconds,
            patchWindowSeconds: patchTimes.min().flatMap { first in patchTimes.max().map { ($0 - first).seconds } } ?? 0,
            objectsPatched: Set(patches.map(\.path)).count, objectPatches: patches.count, requests: received.count, refused: refused,
            owedLeft: Int(figures["passmint_google_update_queue_depth"] ?? -1),
            failed: Int(figures[#"passmint_google_updates_total{result="failed"}"#] ?? -1), standInThreads: standIn.threads,
            connections: options.connections, serveSeconds: spent.serve, standInSeconds: spent.standIn)
    }
}

/// The stand-in alone: object updates (GET + PATCH) per second, and requests per second.
struct GoogleCeiling {
    var updates: Double
    var requests: Double
    /// The bench process's CPU per update in the ceiling run: the stand-in's and the bare client's.
    var microsecondsAnUpdate: Double?
}

struct GoogleBenchResult {
    var passes: Int
    var ceiling: GoogleCeiling
    var commitSeconds: Double
    var drainSeconds: Double
    var patchWindowSeconds: Double
    var objectsPatched: Int
    var objectPatches: Int
    var requests: Int
    var refused: [String: Int]
    var owedLeft: Int
    var failed: Int
    var standInThreads: Int
    var connections: Int
    /// CPU seconds from the upload until the outbox was empty: the service's, and the bench process's (the stand-in's,
    /// with the bench's own polling).
    var serveSeconds: Double?
    var standInSeconds: Double?

    var complete: Bool { objectsPatched == passes && objectPatches == passes && owedLeft == 0 && refused.isEmpty }

    func print(options: GoogleBenchOptions, issueRate: Double) {
        let rate = Double(objectsPatched) / drainSeconds
        let tail = patchWindowSeconds > 0 ? Double(objectsPatched) / patchWindowSeconds : 0
        func figure(_ value: Double) -> String { String(format: "%.0f", value) }
        Swift.print("== Google object updates: \(passes) passes, SQLite, stand-in \(standInThreads) threads, \(connections) connections")
        Swift.print(
            "stand-in ceiling (bare HTTP/1.1 client, GET + PATCH per object): \(figure(ceiling.updates)) objects/s (\(figure(ceiling.requests)) requests/s)"
        )
        Swift.print("issuing with Google objects (16 clients): \(figure(issueRate)) passes/s")
        Swift.print(
            String(format: "bulk update: job committed after %.1f s, Google outbox empty after %.1f s", commitSeconds, drainSeconds))
        Swift.print(
            "Google object updates/s through passmint serve: \(figure(rate)) (upload → outbox empty), \(figure(tail)) (first → last patch at the stand-in)"
        )
        Swift.print(
            String(
                format: "ratio to the stand-in's ceiling: %.2f (upload → empty), %.2f (patch window)", rate / ceiling.updates,
                tail / ceiling.updates))
        Swift.print(
            "objects patched: \(objectsPatched) of \(passes), patches \(objectPatches); owed at the end: \(owedLeft); failed: \(failed); "
                + String(format: "requests per update: %.2f", Double(requests) / Double(max(1, objectPatches))))
        if let serve = serveSeconds, let standIn = standInSeconds, let bare = ceiling.microsecondsAnUpdate {
            // What bounds the rate: at this CPU an update (the service's, the job's share included, and the
            // stand-in's), the machine's cores allow at most `bound` updates a second, whatever the waiting.
            let (serveUs, standInUs) = (serve * 1e6 / Double(passes), standIn * 1e6 / Double(passes))
            let bound = Double(ProcessInfo.processInfo.activeProcessorCount) * 1e6 / (serveUs + standInUs)
            Swift.print(
                String(
                    format: "CPU an update: serve %.0f µs, stand-in %.0f µs (ceiling run: stand-in and bare client %.0f µs)",
                    serveUs, standInUs, bare))
            Swift.print(
                String(
                    format: "the cores allow at that cost: %.0f /s (%.2f of the ceiling; the rate is %.2f of it)", bound,
                    bound / ceiling.updates, rate / bound))
        }
        if !refused.isEmpty { Swift.print("refused by the stand-in: \(refused)") }
    }
}
