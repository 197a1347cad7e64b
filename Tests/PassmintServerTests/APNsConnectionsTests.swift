import Foundation
import PassmintPush
import PassmintTestSupport
import Testing

/// `connections`: the APNs client opens that many HTTP/2 connections and pushes go round them.
@Suite struct APNsConnectionsTests {
    @Test(arguments: [1, 3])
    func pushesGoRoundTheConnections(_ connections: Int) async throws {
        let chain = try TestEnvironment.devChain()
        let server = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: TestEnvironment.temporaryFolder("apns"))
        defer { server.shutdown() }
        let sender = try APNsPushSender(
            identity: ServiceHarness.identity(), endpoint: server.url, trustRoots: [server.serverCertificate], concurrency: 4,
            connections: connections)
        let tokens = (0..<30).map { _ in pushToken() }
        let outcomes = await sender.push(topic: ServiceHarness.passType, pushTokens: tokens)
        try await sender.shutdown()
        #expect(outcomes.allSatisfy { $0.result == .delivered })
        let perConnection = Dictionary(grouping: server.received, by: \.connection).mapValues(\.count)
        #expect(perConnection.keys.allSatisfy { $0 != nil })
        #expect(perConnection.count == connections, "one HTTP/2 connection per client")
        #expect(Set(perConnection.values) == [30 / connections], "each connection carries its share")
    }
}
