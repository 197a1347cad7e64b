import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint serve` killed with SIGKILL while the pushes its order changes owe wait for APNs or have not left yet:
/// after a restart every one reaches the stand-in APNs, on the order type's topic.
@Suite(.offPool) struct ServeOrderKillTests {
    static let orderType = TestEnvironment.devOrderType

    /// Issues a Shipment order through the API; its authentication token.
    static func issueOrder(_ server: ServeProcess, id: String) throws -> String {
        var data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates/Shipment.json").path, what: "")
        ).objectValue!
        data["orderIdentifier"] = .string(id)
        data["authenticationToken"] = nil
        data["updatedAt"] = nil
        let issue = try ServeCommandTests.curl([
            "-X", "POST", server.base + "/api/v1/orders", "-H", "Authorization: Bearer \(ServeProcess.apiKey)", "-H",
            "Accept: application/json", "-d", JSONWriter.string(["template": "Shipment", "data": .object(data)], style: .compact),
        ])
        return try #require(try JSONParser.value(Array(issue.stdout.utf8))["authenticationToken"]?.stringValue, "\(issue.stdout)")
    }

    /// Registers `device` for an order with `pushToken`; the HTTP status.
    static func register(_ server: ServeProcess, id: String, token: String, device: String, pushToken: String) throws -> String {
        try ServeCommandTests.curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
            server.base + "/wallet/v1/devices/\(device)/registrations/\(orderType)/\(id)",
            "-H", "Authorization: AppleOrder \(token)", "-d", #"{"pushToken":"\#(pushToken)"}"#,
        ]).stdout
    }

    /// PATCHes an order's data; the answer's body, a newline and the HTTP status.
    static func patch(_ server: ServeProcess, id: String, data: String) throws -> String {
        try ServeCommandTests.curl([
            "-w", "\n%{http_code}", "-X", "PATCH", server.base + "/api/v1/orders/\(orderType)/\(id)",
            "-H", "Authorization: Bearer \(ServeProcess.apiKey)", "-d", #"{"data":\#(data)}"#,
        ]).stdout
    }

    /// The `pushes` member of an order's metadata.
    static func pushes(_ server: ServeProcess, id: String) throws -> JSONValue {
        let metadata = try ServeCommandTests.curl([
            server.base + "/api/v1/orders/\(orderType)/\(id)", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
        ])
        return try #require(try JSONParser.value(Array(metadata.stdout.utf8))["pushes"], "\(metadata.stdout)")
    }

    /// One order's pushes hang at APNs and two more orders' are owed, not yet sent, when the process is killed: the
    /// restarted service sends the owed ones and, once the dead node's lease has passed, the ones it held, all on the
    /// order type's topic.
    @Test(arguments: TestEnvironment.storeBackends)
    func orderPushesOwedWhenKilledAreAllDeliveredAfterARestart(_ backend: String) throws {
        let folder = TestEnvironment.temporaryFolder("serve-kill-order")
        // One root for the pass and the order certificates: the stand-in APNs trusts it as the client's issuer.
        let certificates = try TestEnvironment.passTypeFolders(uids: ["pass.dev.passmint.example", Self.orderType])
        let apns = try MockAPNsServer(clientCA: certificates.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        apns.setResponseDelay(.seconds(60))
        let database = backend == "sqlite" ? folder.appendingPathComponent("orders.sqlite").path : try TestEnvironment.freshPostgresURL()
        let arguments = [
            "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", database, "--certificates",
            certificates.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "--order-templates", TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates").path, "--apns-url",
            apns.url.absoluteString, "--apns-ca", folder.appendingPathComponent("apns-server.pem").path, "--push-lease", "2s",
        ]
        let first = try ServeProcess(arguments: arguments, folder: folder)
        #expect(first.waitUntilHealthy(), "\(first.output)")
        let run = UUID().uuidString.prefix(8)
        let ids = (1...3).map { "KILL-\(run)-\($0)" }
        var owed: [String: String] = [:]  // push token → order; a device has one push token, so each token its own device
        for (index, id) in ids.enumerated() {
            let token = try Self.issueOrder(first, id: id)
            for device in 0..<2 {
                let pushToken = String(format: "%02x", index * 2 + device + 1) + String(repeating: "7e", count: 31)
                owed[pushToken] = id
                #expect(try Self.register(first, id: id, token: token, device: "dev-\(index)-\(device)", pushToken: pushToken) == "201")
            }
        }
        // The first order's pushes go out and hang at APNs; the pusher is busy with them, so the next two orders'
        // pushes are owed and not yet sent.
        let opening = try Self.patch(first, id: ids[0], data: #"{"shippingStatus":"outForDelivery"}"#)
        #expect(opening.hasSuffix("\n200") && opening.contains(#""queued":2"#), "\(opening)")
        #expect(first.waitFor { apns.inFlight >= 1 }, "the first order's pushes wait for APNs")
        for id in ids.dropFirst() {
            let patch = try Self.patch(first, id: id, data: #"{"shippingStatus":"outForDelivery"}"#)
            #expect(patch.hasSuffix("\n200") && patch.contains(#""queued":2"#), "\(patch)")
        }
        first.kill()  // SIGKILL: APNs answered no push, so every one is still owed
        let before = apns.received.count
        #expect((1...2).contains(before), "only the first order's pushes had reached APNs: \(apns.received.map(\.token))")

        apns.setResponseDelay(.zero)
        let second = try ServeProcess(arguments: arguments, folder: folder)
        defer { second.stop() }
        #expect(second.waitUntilHealthy(), "\(second.output)")
        #expect(
            second.waitFor(seconds: 30) { Set(apns.received.dropFirst(before).map(\.token)).isSuperset(of: owed.keys) },
            "every owed push went out after the restart: \(apns.received.dropFirst(before).map(\.token)) \(second.output)")
        #expect(apns.received.allSatisfy { $0.topic == Self.orderType }, "\(apns.received.map(\.topic))")
        for id in ids {
            #expect(second.waitFor { (try? Self.pushes(second, id: id))?["pending"] == 0 }, "order \(id) owes nothing more")
            #expect(try Self.pushes(second, id: id)["delivered"] == 2)
        }
    }
}
