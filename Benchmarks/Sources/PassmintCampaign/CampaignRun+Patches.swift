import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1
import Passmint
import PassmintTestSupport

/// Single changes beside the bulk update: `PATCH /api/v1/passes/…` from 64 clients at once, spread over every node,
/// each signing its pass's new version as a `PATCH` does.
extension CampaignRun {
    /// PATCHes/s for `count` PATCHes of passes drawn at random, client `i` on node `i % nodes`; each answered 200.
    func patches(count: Int) async throws -> Double {
        guard count > 0 else { return 0 }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let all = serials
        let nodes = nodes
        let apiKey = apiKey
        let start = ContinuousClock.now
        Campaign.phase("patches started")
        defer { Campaign.phase("patches ended") }
        do {
            try await forEachConcurrently(0..<count, width: 64) { index in
                let serial = all[Int.random(in: 0..<all.count)]
                var request = HTTPClientRequest(url: nodes[index % nodes.count].base + "/api/v1/passes/pass.dev.passmint.example/\(serial)")
                request.method = .PATCH
                request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: #"{"data":{"points":\#(10_000 + index % 5000)}}"#))
                let response = try await client.execute(request, timeout: .seconds(60))
                _ = try await response.body.collect(upTo: 1 << 16)
                guard response.status == .ok else { throw CampaignError("PATCH of \(serial) answered \(response.status.code)") }
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        let rate = Double(count) / (ContinuousClock.now - start).seconds
        try await client.shutdown()
        return rate
    }

    /// The raw signing rate of the pass type's key on every core (what a signed PATCH needs once), as `passmint bench`
    /// measures it: the library's signing-speed probe is not public API, so this package asks the program.
    func signingCeiling() throws -> Double {
        let bench = try TestEnvironment.run(
            options.binary,
            [
                "bench", "--passes", "20", "--sign-seconds", "2", "--file-seconds", "1", "--openssl-seconds", "1", "--json",
                "--certificates", chain.path, "--template",
                TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass").path,
            ])
        guard bench.status == 0, let figures = try? JSONParser.value(Array(bench.stdout.utf8)),
            let rate = figures["rawSignaturesPerSecond"]?.numberValue?.doubleValue
        else { throw CampaignError("passmint bench could not measure the signing speed: \(bench.stderr.suffix(1000))") }
        return rate
    }
}

extension CampaignNode {
    /// The node's resident memory now (`VmRSS`), in MiB; nil when it cannot be read.
    var rssMiB: Int? { ProcessMemory.residentMiB(process.processIdentifier) }
}
