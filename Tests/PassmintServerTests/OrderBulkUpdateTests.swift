import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

/// A warehouse updates its shipments with one upload (`POST /api/v1/updates`) whose lines name orders: each line is
/// merged as a PATCH of the order is (status transitions checked, `updatedAt` later, a push owed to every registered
/// device), and a bad line is reported with its number and skipped.
@Suite struct OrderBulkUpdateTests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]

    static func json(_ response: ServiceResponse) throws -> JSONValue { try JSONParser.value(Array(response.body.readableBytesView)) }

    /// Issues a Shipment order and registers one device for it; the order's identifier and the device's push token.
    func issueAndRegister(_ client: some ServiceClient) async throws -> (id: String, push: String) {
        let id = unique("WH")
        let issued = try await client.execute(
            uri: "/api/v1/orders", method: .post, headers: Self.bearer, body: try OrderHarness.issueBody(id: id))
        #expect(issued.status == .created, "\(String(buffer: issued.body))")
        let token = try #require(try Self.json(issued)["authenticationToken"]?.stringValue)
        let push = pushToken()
        let registered = try await client.execute(
            uri: "/wallet/v1/devices/\(unique("iphone"))/registrations/\(OrderHarness.type)/\(id)", method: .post,
            headers: [.authorization: "AppleOrder \(token)"], body: ByteBuffer(string: #"{"pushToken":"\#(push)"}"#))
        #expect(registered.status == .created)
        return (id, push)
    }

    @Test(arguments: StoreKind.allCases)
    func anUploadNamingOrdersChangesThemAsAPatchWouldAndSkipsTheBadLines(_ kind: StoreKind) async throws {
        let push = RecordingPushSender()
        let clock = try OrderHarness.clock()
        try await withStore(kind, clock: clock) { store in
            let service = try OrderHarness.service(store: store, push: push, clock: clock)
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let orders = [try await issueAndRegister(client), try await issueAndRegister(client), try await issueAndRegister(client)]
                let issuedAt = try #require(
                    try await store.pass(passTypeIdentifier: OrderHarness.type, serialNumber: orders[1].id))
                func line(_ id: String, _ change: String) -> String {
                    #"{"orderTypeIdentifier":"\#(OrderHarness.type)","orderIdentifier":"\#(id)",\#(change)}"#
                }
                let body = [
                    line(orders[0].id, #""data":{"shippingStatus":"outForDelivery"}"#),
                    line(orders[1].id, #""data":{"shippingStatus":"delivered","carrier":"UPS"}"#),
                    line(orders[1].id, #""data":{"shippingStatus":"onTheWay"}"#),  // delivered → back on its way: refused
                    line("NO-SUCH-ORDER", #""data":{"shippingStatus":"delivered"}"#),
                    line(orders[2].id, #""voided":true"#),
                    line(orders[0].id, #""data":{"shippingStatus":"outForDelivery"}"#),  // as it is now: unchanged
                    #"{"orderIdentifier":"\#(orders[2].id)","data":{"carrier":"UPS"}}"#,
                    line(orders[2].id, #""data":{"updatedAt":"2030-01-01T00:00:00Z"}"#),  // the service's key
                ].joined(separator: "\n")
                let accepted = try await client.execute(
                    uri: "/api/v1/updates", method: .post, headers: Self.bearer, body: ByteBuffer(string: body))
                #expect(accepted.status == .accepted, "\(String(buffer: accepted.body))")
                let id = try #require(try Self.json(accepted)["id"]?.stringValue)
                func state() async throws -> JSONValue {
                    try Self.json(try await client.execute(uri: "/api/v1/jobs/\(id)", method: .get, headers: Self.bearer))
                }
                // The service logs when a job ends, which rings the test's events: checked again at each.
                #expect(try await eventually { try await state()["state"]?.stringValue != "running" }, "the job ends")
                let job = try await state()
                #expect(job["state"] == "finished", "\(job)")
                #expect(job["done"] == 8 && job["changed"] == 2 && job["unchanged"] == 1 && job["failed"] == 5, "\(job)")
                #expect(job["pushesQueued"] == 2, "\(job)")
                let failures = try #require(job["failures"]?.arrayValue)
                #expect(failures.compactMap { $0["line"]?.numberValue?.intValue } == [3, 4, 5, 7, 8], "\(failures)")
                #expect(failures[0]["orderIdentifier"]?.stringValue == orders[1].id, "\(failures)")
                #expect(failures[0]["reason"]?.stringValue?.contains("order-status-transition") == true, "\(failures)")
                #expect(failures[1]["reason"]?.stringValue?.contains("no order") == true, "\(failures)")
                #expect(failures[2]["reason"]?.stringValue?.contains("\"voided\"") == true, "\(failures)")
                #expect(failures[3]["reason"]?.stringValue?.contains("orderTypeIdentifier") == true, "\(failures)")
                #expect(failures[4]["reason"]?.stringValue?.contains("updatedAt") == true, "\(failures)")

                let stored = try #require(
                    try await store.pass(passTypeIdentifier: OrderHarness.type, serialNumber: orders[1].id))
                let data = try JSONParser.value(Array(stored.dataJSON.utf8))
                #expect(data["shippingStatus"] == "delivered" && data["carrier"] == "UPS", "the refused line changed nothing: \(data)")
                #expect(stored.updatedAt > issuedAt.updatedAt && stored.updateTag > issuedAt.updateTag)

                // The two changed orders' devices are pushed, on the order type's topic; the third's is not.
                try await service.pushQueue.drain()
                let pushed = push.pushes.withLock { $0 }
                #expect(Set(pushed.flatMap(\.tokens)) == [orders[0].push, orders[1].push], "\(pushed)")
                #expect(pushed.allSatisfy { $0.topic == OrderHarness.type })
            }
        }
    }
}
