import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// A warehouse's CSV of shipment changes sent with `passmint update` to a running `passmint serve`: each row changes
/// one order as a PATCH would, the changed orders' devices are pushed on the order type's topic, and the rows that
/// cannot be applied are reported with their row and reason.
@Suite(.offPool) struct OrderUpdateCommandTests {
    @Test func aCSVNamingOrdersChangesThemAndReportsTheRowsThatCannotBeApplied() throws {
        let folder = TestEnvironment.temporaryFolder("update-orders")
        let certificates = try TestEnvironment.passTypeFolders(uids: ["pass.dev.passmint.example", TestEnvironment.devOrderType])
        let apns = try MockAPNsServer(clientCA: certificates.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url",
                folder.appendingPathComponent("o.sqlite").path, "--certificates", certificates.path, "--templates",
                TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--order-templates",
                TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates").path, "--apns-url", apns.url.absoluteString,
                "--apns-ca", folder.appendingPathComponent("apns-server.pem").path,
            ], folder: folder)
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        let ids = (1...3).map { "SHIP-\($0)-\(UUID().uuidString.prefix(6))" }
        var tokens: [String] = []
        for id in ids { tokens.append(try ServeOrderKillTests.issueOrder(server, id: id)) }
        let device = String(repeating: "5c", count: 32)
        #expect(try ServeOrderKillTests.register(server, id: ids[0], token: tokens[0], device: "phone", pushToken: device) == "201")

        let changes = folder.appendingPathComponent("shipments.csv")
        try """
        orderIdentifier,shippingStatus,carrier
        \(ids[0]),outForDelivery,
        \(ids[1]),delivered,UPS
        NO-SUCH-ORDER,delivered,
        \(ids[1]),onTheWay,
        ,delivered,
        \(ids[2]),onTheWay,DHL

        """.write(to: changes, atomically: true, encoding: .utf8)
        let update = try TestEnvironment.run(
            CreateCommandTests.binary, ["update", "--service", server.base, "--data", changes.path, "--json"],
            environment: ["PASSMINT_API_KEY": ServeProcess.apiKey], in: folder)
        #expect(update.status == 1, "rows failed: \(update.stderr)")
        let job = try JSONParser.value(Array(update.stdout.utf8))
        #expect(job["state"] == "finished" && job["changed"] == 2 && job["unchanged"] == 1 && job["failed"] == 3, "\(update.stdout)")
        #expect(job["failedBeforeUpload"] == 1, "\(update.stdout)")
        let report = try String(contentsOf: folder.appendingPathComponent("shipments.csv.failures.csv"), encoding: .utf8)
        // A reason may hold a line break (the lint finding under the refusal): the CSV quotes it.
        #expect(report.hasPrefix("row,line,orderIdentifier,reason\n3,4,NO-SUCH-ORDER,no order "), "\(report)")
        #expect(report.contains("\n4,5,\(ids[1]),\"order \(ids[1]) cannot change this way"), "\(report)")
        #expect(report.contains("back to onTheWay, which a fulfillment cannot do [order-status-transition]"), "\(report)")
        #expect(report.contains("\n5,6,,\"row 5, column orderIdentifier: no order identifier (the value is empty)\"\n"), "\(report)")
        let metadata = try ServeCommandTests.curl([
            server.base + "/api/v1/orders/\(TestEnvironment.devOrderType)/\(ids[1])", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
        ])
        let order = try JSONParser.value(Array(metadata.stdout.utf8))
        #expect(order["data"]?["shippingStatus"] == "delivered" && order["data"]?["carrier"] == "UPS", "\(metadata.stdout)")
        #expect(order["data"]?["trackingNumber"] == "00340434161234567890", "the other values are kept")
        #expect(server.waitFor { apns.received.map(\.token) == [device] }, "the changed order's device was pushed")
        #expect(apns.received.first?.topic == TestEnvironment.devOrderType)
    }
}
