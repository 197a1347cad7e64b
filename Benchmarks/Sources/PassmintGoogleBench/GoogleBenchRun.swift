import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Passmint
import PassmintTestSupport

/// One run: the stand-in (the tests' ``GoogleWalletStandIn``, on `--stand-in-threads` threads), a Google service account made now, the service, the issued passes.
final class GoogleBenchRun: @unchecked Sendable {
    static let issuerID = "3388000000022222222"
    static let passType = "pass.dev.passmint.example"
    static let email = "passmint-bench@passmint-bench.iam.gserviceaccount.com"
    let options: GoogleBenchOptions
    let folder: URL
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    let standIn: GoogleWalletStandIn
    let service: BenchService
    var issueRate = 0.0

    var serials: [String] { (0..<options.passes).map { "G-\($0)" } }

    init(options: GoogleBenchOptions) async throws {
        self.options = options
        folder = TestEnvironment.temporaryFolder("google-bench")
        let chain = try TestEnvironment.devChain(uid: Self.passType)
        let account = try TestServiceAccount(folder: folder, clientEmail: Self.email)
        standIn = try GoogleWalletStandIn(account: account, issuerID: Self.issuerID, threads: options.standInThreads)
        let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        do {
            service = try BenchService(
                binary: options.binary,
                arguments: [
                    "serve", "--public-url", "https://passes.example.test/wallet", "--database-url",
                    folder.appendingPathComponent("bench.sqlite").path, "--certificates", chain.path, "--templates",
                    TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--jobs-folder",
                    folder.appendingPathComponent("jobs").path,
                ],
                environment: [
                    "PASSMINT_GOOGLE_SERVICE_ACCOUNT": keyFile.path, "PASSMINT_GOOGLE_ISSUER_ID": Self.issuerID,
                    "PASSMINT_GOOGLE_API_URL": standIn.url.absoluteString,
                ], apiKey: "google-bench-api-key-0123456789", folder: folder, group: group)
        } catch {
            standIn.shutdown()
            throw error
        }
        guard await service.waitUntilHealthy() else {
            stop()
            throw BenchError("passmint serve did not start: \(service.output)")
        }
    }

    func stop() {
        service.stop()
        standIn.shutdown()
        try? group.syncShutdownGracefully()
    }

    /// Issues every pass through the API, asking for JSON: each answer carries its Google save link, so Google holds
    /// its object (and the store notes it).
    func issue() async throws {
        let data = try Data(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json"))
        guard let template = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchError("PassTemplates/Loyalty.json is not a JSON object")
        }
        let bodies = serials.map { serial -> [UInt8] in
            var fields = template
            fields["serialNumber"] = serial
            let body: [String: Any] = ["template": "Loyalty", "data": fields]
            return Array((try? JSONSerialization.data(withJSONObject: body)) ?? Data())
        }
        let start = ContinuousClock.now
        try await service.http.run(
            connections: 16, count: bodies.count, requests: { [service] in [service.api(.POST, "/api/v1/passes", body: bodies[$0])] },
            check: { index, answers in
                guard answers[0].status == 201, answers[0].text.contains("\"googleSaveURL\"") else {
                    throw BenchError("issuing pass \(index) answered \(answers[0].status): \(answers[0].text.prefix(400))")
                }
            })
        issueRate = Double(bodies.count) / (ContinuousClock.now - start).seconds
    }

    /// The stand-in alone: as many copies of an issued object as there are passes, inserted first, then each updated
    /// as the service's client does it (a GET, then a PATCH of the whole object) over `connections` connections.
    func ceiling() async throws -> GoogleCeiling {
        let sample = Self.issuerID + "." + Self.passType + "." + serials[0]
        guard let object = standIn.stored("loyaltyObject", id: sample) else {
            throw BenchError("the stand-in holds no object \(sample) after issuing")
        }
        let token = standIn.issueToken()
        let headers = [("authorization", "Bearer \(token)"), ("content-type", "application/json; charset=utf-8")]
        let ids = (0..<options.passes).map { Self.issuerID + ".bench.ceiling-\($0)" }
        let bodies = ids.map { id -> [UInt8] in
            var copy = object
            copy["id"] = .string(id)
            return JSONWriter.data(.object(copy), style: .compact)
        }
        let bare = BenchHTTP(host: "127.0.0.1", port: standIn.port, group: group)
        let path = "/walletobjects/v1/loyaltyObject"
        try await bare.run(
            connections: options.connections, count: ids.count,
            requests: { [BenchRequest(method: .POST, path: path, headers: headers, body: bodies[$0])] },
            check: { index, answers in
                guard answers[0].status == 200 else { throw BenchError("inserting \(ids[index]) answered \(answers[0].text)") }
            })
        let start = ContinuousClock.now
        let cpuBefore = ProcessCPU.seconds()
        try await bare.run(
            connections: options.connections, count: ids.count,
            requests: {
                [
                    BenchRequest(method: .GET, path: path + "/" + ids[$0], headers: headers),
                    BenchRequest(method: .PATCH, path: path + "/" + ids[$0], headers: headers, body: bodies[$0]),
                ]
            },
            check: { index, answers in
                guard answers.allSatisfy({ $0.status == 200 }) else {
                    throw BenchError("updating \(ids[index]) answered \(answers.map(\.status)): \(answers.last?.text ?? "")")
                }
            })
        let seconds = (ContinuousClock.now - start).seconds
        let cpu = ProcessCPU.since(cpuBefore)
        standIn.forgetReceived()
        return GoogleCeiling(
            updates: Double(ids.count) / seconds, requests: Double(ids.count * 2) / seconds,
            microsecondsAnUpdate: cpu.map { $0 * 1e6 / Double(ids.count) })
    }
}
