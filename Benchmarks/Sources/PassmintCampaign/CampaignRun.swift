import AsyncHTTPClient
import BenchSupport
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Passmint
import PassmintPush
import PassmintTestSupport

/// One campaign: the APNs stand-in (the tests' ``MockAPNsServer``, on `--stand-in-threads` threads), the service nodes, the seeded passes and devices, the bulk update.
final class CampaignRun: @unchecked Sendable {
    static let topic = "pass.dev.passmint.example"
    static let keyIdentifier = "CAMPAIGNK1"
    static let team = "DEVTEAM123"
    let options: CampaignOptions
    let folder: URL
    let chain: URL
    let apns: MockAPNsServer
    /// The APNs auth key, with `--apns-auth token`.
    let authKey: URL?
    let databaseURL: String
    let apiKey = "campaign-api-key-0123456789"
    var nodes: [CampaignNode] = []
    /// serial → authentication token
    var tokens: [String: String] = [:]
    var seedRate = 0.0
    var http: HTTPClient { .shared }

    var serials: [String] { (0..<(options.single + options.shared * options.perDevice)).map { "C-\($0)" } }

    /// The push token of the device holding pass `index`.
    func pushToken(_ index: Int) -> String {
        let device = index < options.single ? index : 10_000_000 + (index - options.single) / options.perDevice
        return String(format: "%064x", device)
    }

    func device(_ index: Int) -> String {
        index < options.single ? "d\(index)" : "s\((index - options.single) / options.perDevice)"
    }

    init(options: CampaignOptions) throws {
        self.options = options
        folder = TestEnvironment.temporaryFolder("campaign")
        chain = try TestEnvironment.devChain(uid: Self.topic, team: Self.team)
        // Clients authenticate with the chain's signer certificate, or with provider tokens of a key made now.
        let key = options.apnsAuthentication == "token" ? try TestAPNsKey(folder: folder, keyIdentifier: Self.keyIdentifier) : nil
        authKey = key?.p8
        apns = try MockAPNsServer(
            clientCA: chain.appendingPathComponent("root.pem"), folder: folder,
            providerTokens: try key?.verifier(teamIdentifier: Self.team),
            topic: Self.topic, threads: options.standInThreads)
        databaseURL = options.database == "sqlite" ? folder.appendingPathComponent("campaign.sqlite").path : options.database
        do {
            for index in 0..<options.nodes { nodes.append(try startNode(index)) }
        } catch {
            try? stop()
            throw error
        }
    }

    func startNode(_ index: Int) throws -> CampaignNode {
        var arguments = [
            "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", databaseURL, "--certificates", chain.path,
            "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--apns-url",
            apns.url.absoluteString, "--apns-ca", apns.serverCertificateFile.path, "--push-lease", "5s",
            "--job-lease", "5s", "--apns-connections", "\(options.apnsConnections)", "--jobs-folder",
            folder.appendingPathComponent("jobs-\(index)").path,
        ]
        if let authKey { arguments += ["--apns-key", authKey.path, "--apns-key-id", Self.keyIdentifier, "--apns-team-id", Self.team] }
        let node = try CampaignNode(binary: options.binary, arguments: arguments, apiKey: apiKey, folder: folder)
        guard node.waitUntilHealthy() else {
            try? node.stop()  // not yet among `nodes`: the run's stop would leave it running
            throw CampaignError(
                "node \(index) did not answer /health within \(Int(CampaignNode.startLimit)) s of its start (or it exited): \(node.output)")
        }
        return node
    }

    /// Stops every node (each is asked, whatever another did) and the stand-in; the first node that would not stop
    /// is the error.
    func stop() throws {
        var failure: (any Error)?
        for node in nodes {
            do { try node.stop() } catch { failure = failure ?? error }
        }
        apns.shutdown()
        if let failure { throw failure }
    }

    /// Records every pass with `passmint batch --register --no-files` (lazy issuing), then registers its device.
    func seed() async throws {
        let members = folder.appendingPathComponent("members.csv")
        var csv = "serialNumber,memberId,memberName,tier,nfcMessage,points,pointsToNextReward,memberSince\n"
        for (index, serial) in serials.enumerated() {
            csv += "\(serial),\(100_000 + index),Member \(index),Gold,mlc:\(index),\(index % 5000),250,2024-03-01T00:00:00+01:00\n"
        }
        try FileIO.writeAtomically(Array(csv.utf8), to: members.path)
        let start = ContinuousClock.now
        let batch = try TestEnvironment.run(
            options.binary,
            [
                "batch", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass").path, "--data", members.path,
                "--out-dir", folder.appendingPathComponent("seed").path, "--certificates", chain.path, "--register", databaseURL,
                "--public-url", "https://passes.example.test/wallet", "--no-files", "--quiet",
            ])
        guard batch.status == 0 else { throw CampaignError("seeding failed: \(batch.stderr)") }
        seedRate = Double(serials.count) / (ContinuousClock.now - start).seconds
        let report = try String(contentsOf: folder.appendingPathComponent("seed/batch-report.csv"), encoding: .utf8)
        let rows = report.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = rows[0]
        guard let serialColumn = header.firstIndex(of: "serialNumber"), let tokenColumn = header.firstIndex(of: "authenticationToken")
        else { throw CampaignError("the batch report has no serialNumber/authenticationToken: \(header)") }
        for row in rows.dropFirst() where row.count > max(serialColumn, tokenColumn) { tokens[row[serialColumn]] = row[tokenColumn] }
        let all = serials
        try await forEachConcurrently(all.indices, width: 64) { index in
            let serial = all[index]
            var request = HTTPClientRequest(
                url: self.nodes[0].base + "/wallet/v1/devices/\(self.device(index))/registrations/pass.dev.passmint.example/\(serial)")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "ApplePass \(self.tokens[serial] ?? "")")
            request.body = .bytes(ByteBuffer(string: #"{"pushToken":"\#(self.pushToken(index))"}"#))
            let response = try await self.http.execute(request, timeout: .seconds(60))
            _ = try await response.body.collect(upTo: 1 << 16)
            guard response.status == .created || response.status == .ok else {
                throw CampaignError("registering \(serial) answered \(response.status.code)")
            }
        }
    }
}
