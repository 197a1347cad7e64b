import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Passmint
import PassmintTestSupport

/// What one bulk update did.
struct CampaignResult {
    var rows: Int
    var commitSeconds: Double
    var pushes: Int
    var distinctTokens: Int
    var expectedTokens: Int
    var pushSeconds: Double
    var drainSeconds: Double
    var lost: Int
    var owedLeft: Int
    var killed: Bool
    var failedRows: Int

    func print(options: CampaignOptions, pushCeiling: Double, seedRate: Double) {
        let store = options.database == "sqlite" ? "SQLite" : "PostgreSQL"
        Swift.print(
            "campaign: \(rows) passes, \(expectedTokens) devices, \(store), \(options.nodes) node(s)\(killed ? ", kill -9 of the job's node at 40 %" : "")"
        )
        Swift.print(
            String(
                format: "  rows committed        %8.0f rows/s  (%.1f s; %d failed)   lazy import of the same rows: %.0f rows/s",
                Double(rows) / commitSeconds, commitSeconds, failedRows, seedRate))
        Swift.print(
            String(
                format: "  pushes delivered      %8.0f /s      (first to last push %.1f s)   APNs client alone, same mock: %.0f /s",
                Double(pushes) / max(pushSeconds, 0.001), pushSeconds, pushCeiling))
        Swift.print(
            "  pushes sent           \(pushes) for \(distinctTokens) distinct (device, pass type) pairs of \(expectedTokens): \(pushes - distinctTokens) more than one per pair"
        )
        Swift.print(String(format: "  time to drain         %8.1f s from the upload's start", drainSeconds))
        Swift.print("  pushes lost           \(lost) (devices never pushed after their change)   owed left in the store: \(owedLeft)")
    }
}

extension CampaignRun {
    func job(_ id: String, on node: CampaignNode) async -> JSONValue? {
        var request = HTTPClientRequest(url: node.base + "/api/v1/jobs/\(id)")
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        guard let response = try? await http.execute(request, timeout: .seconds(10)),
            let body = try? await response.body.collect(upTo: 1 << 20), response.status == .ok
        else { return nil }
        return try? JSONParser.value(Array(body.readableBytesView))
    }

    /// One line per pass (new points for everyone), uploaded to the first node; measured until every device was pushed.
    func update() async throws -> CampaignResult {
        let all = serials
        var upload: [UInt8] = []
        for serial in all {
            upload += Array(
                #"{"passTypeIdentifier":"pass.dev.passmint.example","serialNumber":"\#(serial)","data":{"points":\#(Int.random(in: 5001...9999))}}"#
                    .utf8)
            upload.append(0x0A)
        }
        let expected = Set(all.indices.map(pushToken))
        apns.reset()
        apns.setResponseDelay(.milliseconds(options.apnsDelay))
        let start = ContinuousClock.now
        var request = HTTPClientRequest(url: nodes[0].base + "/api/v1/updates")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        request.body = .bytes(ByteBuffer(bytes: upload))
        let response = try await http.execute(request, timeout: .seconds(300))
        let answer = try JSONParser.value(Array(try await response.body.collect(upTo: 1 << 20).readableBytesView))
        guard response.status == .accepted, let id = answer["id"]?.stringValue else { throw CampaignError("the upload answered \(answer)") }

        var committed: ContinuousClock.Instant?
        var drained: ContinuousClock.Instant?
        var killed = false
        var last = JSONValue.null
        while drained == nil, ContinuousClock.now - start < .seconds(1800) {
            try await Task.sleep(for: .milliseconds(100))
            guard let job = await job(id, on: nodes[0]) else { continue }
            last = job
            if options.kill, !killed, (job["done"]?.numberValue?.intValue ?? 0) >= all.count * 2 / 5 {
                nodes[0].kill()
                nodes[0] = try nodes[0].restarted()
                guard nodes[0].waitUntilHealthy() else { throw CampaignError("the killed node did not start again: \(nodes[0].output)") }
                killed = true
                continue
            }
            if committed == nil, job["state"]?.stringValue == "finished" { committed = .now }
            if committed != nil, job["pushQueue"]?["owed"]?.numberValue?.intValue == 0, apns.inFlight == 0 { drained = .now }
        }
        let received = apns.received
        let pushed = Set(received.map(\.token))
        let first = received.map(\.at).min() ?? start
        let lastPush = received.map(\.at).max() ?? start
        return CampaignResult(
            rows: all.count, commitSeconds: ((committed ?? .now) - start).seconds, pushes: received.count,
            distinctTokens: pushed.count, expectedTokens: expected.count, pushSeconds: (lastPush - first).seconds,
            drainSeconds: ((drained ?? .now) - start).seconds, lost: expected.subtracting(pushed).count,
            owedLeft: last["pushQueue"]?["owed"]?.numberValue?.intValue ?? -1, killed: killed,
            failedRows: last["failed"]?.numberValue?.intValue ?? 0)
    }
}
