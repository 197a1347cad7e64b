import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// The issuing API's pass lookup (`GET /api/v1/passes/{type}/{serial}`) says where the pass's Google object stands
/// beside its devices' pushes: its id once a link was made, and the patch it is owed (pending, failed attempts, due).
@Suite struct GooglePassLookupTests {
    static func lookup(_ client: some ServiceClient, _ serial: String) async throws -> JSONValue {
        let response = try await client.execute(
            uri: "/api/v1/passes/\(ServiceHarness.passType)/\(serial)", method: .get,
            headers: [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"])
        #expect(response.status == .ok)
        return try JSONParser.value(Array(response.body.readableBytesView))
    }

    @Test(arguments: StoreKind.allCases)
    func aLookupShowsTheGoogleObjectAndThePatchItIsOwed(_ kind: StoreKind) async throws {
        try await GoogleOutboxTests.withHarness(kind) { harness, store in
            try await harness.withCore(on: store) { core in
                try await buildApplication(core: core, logger: .init(label: "google")).serviceTest(.router) { client in
                    let queue = try #require(core.googleUpdates)
                    // Before any link: no Google object to speak of.
                    let unlinked = unique("LOOKUP")
                    _ = try await core.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unlinked))
                    #expect(try await Self.lookup(client, unlinked)["google"] == nil)

                    let serial = try await GoogleOutboxTests.issueLinked(core)
                    let objectID = "\(GoogleServeHarness.issuerID).\(ServiceHarness.passType).\(serial)"
                    var google = try await Self.lookup(client, serial)["google"]
                    #expect(google?["objectId"]?.stringValue == objectID, "\(String(describing: google))")
                    #expect(google?["pending"] == false && google?["attempts"] == 0 && google?["due"] == .null)

                    // Google refuses the change's patch: owed, one failed attempt, due after its back-off.
                    harness.standIn.failNext([.init(status: 403)])
                    try await GoogleOutboxTests.setPoints(core, serial, 515_001)
                    try await queue.drain()
                    google = try await Self.lookup(client, serial)["google"]
                    #expect(google?["pending"] == true && google?["attempts"] == 1, "\(String(describing: google))")
                    #expect(google?["due"]?.stringValue != nil)

                    // After the back-off the retry patches it: nothing owed.
                    harness.clock.advance(by: .seconds(2))
                    try await queue.drain()
                    google = try await Self.lookup(client, serial)["google"]
                    #expect(google?["pending"] == false && google?["attempts"] == 0, "\(String(describing: google))")
                    #expect(try GoogleOutboxTests.storedObject(harness, serial).contains("515001"))
                }
            }
        }
    }
}
