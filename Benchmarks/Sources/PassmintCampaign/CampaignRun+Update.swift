import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1
import Passmint
import PassmintTestSupport

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
        let rssBefore = nodes[0].rssMiB
        var rssPeak = rssBefore
        var rssByTenth: [Int] = []  // at each tenth of the job's lines done
        let start = ContinuousClock.now
        var request = HTTPClientRequest(url: nodes[0].base + "/api/v1/updates")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        request.body = .bytes(ByteBuffer(bytes: upload))
        let response = try await http.execute(request, timeout: .seconds(300))
        let answer = try JSONParser.value(Array(try await response.body.collect(upTo: 1 << 20).readableBytesView))
        guard response.status == .accepted, let id = answer["id"]?.stringValue else { throw CampaignError("the upload answered \(answer)") }
        Campaign.phase("update started")

        var committed: ContinuousClock.Instant?
        var drained: ContinuousClock.Instant?
        var killed = false
        var last = JSONValue.null
        while drained == nil, ContinuousClock.now - start < .seconds(1800) {
            try await Task.sleep(for: .milliseconds(100))
            if committed == nil, let rss = nodes[0].rssMiB { rssPeak = max(rssPeak ?? rss, rss) }
            guard let job = await job(id, on: nodes[0]) else { continue }
            last = job
            let done = job["done"]?.numberValue?.intValue ?? 0
            while committed == nil, rssByTenth.count < 10, done * 10 >= (rssByTenth.count + 1) * all.count, let rss = nodes[0].rssMiB {
                rssByTenth.append(rss)
            }
            if options.kill, !killed, (job["done"]?.numberValue?.intValue ?? 0) >= all.count * 2 / 5 {
                nodes[0].kill()
                nodes[0] = try nodes[0].restarted()
                guard nodes[0].waitUntilHealthy() else { throw CampaignError("the killed node did not start again: \(nodes[0].output)") }
                killed = true
                continue
            }
            if committed == nil, job["state"]?.stringValue == "finished" {
                committed = .now
                Campaign.phase("update committed")
            }
            if committed != nil, job["pushQueue"]?["owed"]?.numberValue?.intValue == 0, apns.inFlight == 0 { drained = .now }
        }
        let received = apns.received
        let pushed = Set(received.map(\.token))
        let first = received.map(\.at).min() ?? start
        let lastPush = received.map(\.at).max() ?? start
        // After the job committed nothing holds the pushes back but the pushers: the backlog's drain rate.
        let tail = committed.map { moment in received.filter { $0.at > moment } } ?? []
        return CampaignResult(
            rows: all.count, commitSeconds: ((committed ?? .now) - start).seconds, pushes: received.count,
            distinctTokens: pushed.count, expectedTokens: expected.count, pushSeconds: (lastPush - first).seconds,
            drainSeconds: ((drained ?? .now) - start).seconds, lost: expected.subtracting(pushed).count,
            owedLeft: last["pushQueue"]?["owed"]?.numberValue?.intValue ?? -1, killed: killed,
            failedRows: last["failed"]?.numberValue?.intValue ?? 0, refused: apns.refused, tailPushes: tail.count,
            tailSeconds: committed.map { moment in ((tail.map(\.at).max() ?? moment) - moment).seconds } ?? 0,
            rssBeforeMiB: rssBefore, rssPeakMiB: rssPeak, rssByTenthMiB: rssByTenth)
    }
}
