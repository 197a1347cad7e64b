import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// A simulated iPhone tracking an order against the live service, on both stores: it registers with the order's token,
/// the issuer changes the order, APNs (a local stand-in checking the client certificate) receives a push with the order
/// type as topic, the device lists the changed orders and fetches the new signed order (200, then 304).
@Suite(.serialized) struct OrderWebServiceTests {
    static func json(_ response: ServiceResponse) throws -> JSONValue { try JSONParser.value(Array(response.body.readableBytesView)) }

    @Test(arguments: StoreKind.allCases)
    func aDeviceRegistersIsPushedListsTheChangedOrderAndFetchesIt(_ kind: StoreKind) async throws {
        let (apnsServer, sender) = try OrderHarness.apns()
        defer { apnsServer.shutdown() }
        let clock = try OrderHarness.clock()  // stands still: each version's updatedAt must still move a second on
        try await withStore(kind, clock: clock) { store in
            let service = try OrderHarness.service(store: store, push: sender, clock: clock)
            try await buildApplication(core: service, logger: .init(label: "orders")).serviceTest(.live) { client in
                let type = OrderHarness.type
                let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]
                let id = unique("NW")
                let issued = try await client.execute(
                    uri: "/api/v1/orders", method: .post, headers: bearer, body: try OrderHarness.issueBody(id: id))
                #expect(issued.status == .created, "\(String(buffer: issued.body))")
                let metadata = try Self.json(issued)
                #expect(metadata["orderTypeIdentifier"]?.stringValue == type && metadata["orderIdentifier"]?.stringValue == id)
                let token = try #require(metadata["authenticationToken"]?.stringValue)
                let order: HTTPFields = [.authorization: "AppleOrder \(token)"]
                let device = unique("iphone")
                let push = pushToken()
                let registration = "/wallet/v1/devices/\(device)/registrations/\(type)/\(id)"
                let body = ByteBuffer(string: #"{"pushToken":"\#(push)"}"#)

                // A wrong token or the pass scheme is refused; the order's token registers (201, then 200).
                let wrong = try await client.execute(
                    uri: registration, method: .post, headers: [.authorization: "AppleOrder wrong-token-0123456789"], body: body)
                #expect(wrong.status == .unauthorized)
                let passScheme = try await client.execute(
                    uri: registration, method: .post, headers: [.authorization: "ApplePass \(token)"], body: body)
                #expect(passScheme.status == .unauthorized)
                #expect(try await client.execute(uri: registration, method: .post, headers: order, body: body).status == .created)
                #expect(try await client.execute(uri: registration, method: .post, headers: order, body: body).status == .ok)

                // The changed-orders list, then the order (200 with its Last-Modified, then 304).
                let list = try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)", method: .get)
                #expect(list.status == .ok)
                #expect(try Self.json(list)["orderIdentifiers"] == [.string(id)])
                let tag = try #require(try Self.json(list)["lastModified"]?.stringValue)
                let none = try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)?ordersModifiedSince=\(tag)", method: .get)
                #expect(none.status == .noContent)
                let first = try await client.execute(uri: "/wallet/v1/orders/\(type)/\(id)", method: .get, headers: order)
                #expect(first.status == .ok && first.headers[.contentType] == "application/vnd.apple.finance.order")
                let lastModified = try #require(first.headers[.lastModified])
                let firstJSON = try OrderHarness.orderJSON(Array(first.body.readableBytesView))
                let unchanged = try await client.execute(
                    uri: "/wallet/v1/orders/\(type)/\(id)", method: .get, headers: order + [.ifModifiedSince: lastModified])
                #expect(unchanged.status == .notModified)
                #expect(apnsServer.received.isEmpty, "registering pushes nothing")

                // The issuer changes the shipment: APNs receives one push for the device, topic the order type, body {}.
                let patched = try await client.execute(
                    uri: "/api/v1/orders/\(type)/\(id)", method: .patch, headers: bearer,
                    body: ByteBuffer(string: #"{"data":{"shippingStatus":"outForDelivery"}}"#))
                #expect(patched.status == .ok, "\(String(buffer: patched.body))")
                #expect(try Self.json(patched)["push"]?["queued"] == 1 && Self.json(patched)["changed"] == true)
                #expect(await eventually { apnsServer.received.count == 1 })
                let received = try #require(apnsServer.received.first)
                #expect(received.token == push && received.topic == type && received.body == "{}")
                #expect(received.clientCertificateSubject?.contains(type) == true, "the order certificate is the TLS client identity")

                // The device lists the order as changed and fetches the new version: valid, signed, its updatedAt later.
                let changed = try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)?ordersModifiedSince=\(tag)", method: .get)
                #expect(changed.status == .ok)
                #expect(try Self.json(changed)["orderIdentifiers"] == [.string(id)])
                #expect(try Self.json(changed)["lastModified"]?.stringValue != tag)
                let fetched = try await client.execute(
                    uri: "/wallet/v1/orders/\(type)/\(id)", method: .get, headers: order + [.ifModifiedSince: lastModified])
                #expect(fetched.status == .ok)
                let bytes = Array(fetched.body.readableBytesView)
                let report = OrderVerifier(root: try OrderHarness.root(), team: "DEVTEAM123").verify(bytes, source: "fetched.order")
                #expect(report.isValid, "\(report.checks.filter { $0.status == .failed })")
                let json = try OrderHarness.orderJSON(bytes)
                #expect(json["fulfillments"]?.arrayValue?.first?["status"] == "outForDelivery")
                #expect(json["authenticationToken"]?.stringValue == token && json["orderIdentifier"]?.stringValue == id)
                let before = try #require(firstJSON["updatedAt"]?.stringValue.flatMap(RFC3339Date.parse))
                let after = try #require(json["updatedAt"]?.stringValue.flatMap(RFC3339Date.parse))
                #expect(after == before.addingTimeInterval(1), "updatedAt strictly increases though the clock stood still")
                #expect(json["webServiceURL"]?.stringValue == ServiceHarness.publicURL)

                // The issuer reads the order with its push state; the device leaves and is pushed no more.
                // The pusher records the outcome once APNs answered: after the stand-in saw the push, not before.
                let settled = try await eventually {
                    let read = try await client.execute(uri: "/api/v1/orders/\(type)/\(id)", method: .get, headers: bearer)
                    return try Self.json(read)["pushes"]?["pending"] == 0
                }
                #expect(settled)
                let read = try await client.execute(uri: "/api/v1/orders/\(type)/\(id)", method: .get, headers: bearer)
                #expect(
                    try Self.json(read)["pushes"]?["delivered"] == 1 && Self.json(read)["registrations"] == 1,
                    "\(String(buffer: read.body))")
                #expect(try await client.execute(uri: registration, method: .delete, headers: order).status == .ok)
                let again = try await client.execute(
                    uri: "/api/v1/orders/\(type)/\(id)", method: .patch, headers: bearer,
                    body: ByteBuffer(string: #"{"data":{"carrier":"UPS"}}"#))
                #expect(try Self.json(again)["push"]?["queued"] == 0)
                #expect(apnsServer.received.count == 1)
            }
        }
        try await sender.shutdown()
    }

    @Test func aCompletedOrderIsNotOpenedAgainAndTheServiceKeepsItsOwnKeys() async throws {
        let clock = try OrderHarness.clock()
        try await withStore(.sqlite, clock: clock) { store in
            let service = try OrderHarness.service(store: store, push: RecordingPushSender(), clock: clock)
            let id = unique("NW")
            let issued = try await service.issuing.issueOrder(template: "Shipment", data: try OrderHarness.shipmentData(id: id))
            let type = issued.pass.passTypeIdentifier
            let completed = try await service.updates.update(
                .order, passTypeIdentifier: type, serialNumber: id, data: ["status": "completed"], voided: nil, ifMatch: nil)
            #expect(completed.changed == true)
            let reopened = await #expect(throws: ServiceFailure.self) {
                _ = try await service.updates.update(
                    .order, passTypeIdentifier: type, serialNumber: id, data: ["status": "open"], voided: nil, ifMatch: nil)
            }
            #expect(reopened?.status == .unprocessableContent && reopened?.message?.contains("order-status-transition") == true)
            let stored = try await service.lookup.metadata(.order, passTypeIdentifier: type, serialNumber: id)
            #expect(stored.pass.updateTag == completed.pass.updateTag && stored.data?["status"] == "completed", "nothing was changed")
            let owned = await #expect(throws: ServiceFailure.self) {
                _ = try await service.updates.update(
                    .order, passTypeIdentifier: type, serialNumber: id, data: ["authenticationToken": "mine-0123456789abcdef"], voided: nil,
                    ifMatch: nil)
            }
            #expect(owned?.status == .badRequest && owned?.message?.contains("data.authenticationToken") == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func patchesRacingForOneOrderAreAllKept(_ kind: StoreKind) async throws {
        let clock = try OrderHarness.clock()
        try await withStore(kind, clock: clock) { store in
            let service = try OrderHarness.service(store: store, push: RecordingPushSender(), clock: clock)
            let id = unique("NW")
            let issued = try await service.issuing.issueOrder(template: "Shipment", data: try OrderHarness.shipmentData(id: id))
            let type = issued.pass.passTypeIdentifier
            let keys = (0..<6).map { "note\($0)" }
            let tags = try await withThrowingTaskGroup(of: Int64.self) { group in
                for (index, key) in keys.enumerated() {
                    group.addTask {
                        let data: JSONObject = [key: .number(JSONNumber(index))]
                        return try await service.updates.update(
                            .order, passTypeIdentifier: type, serialNumber: id, data: data, voided: nil, ifMatch: nil
                        )
                        .pass.updateTag
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0.append($1) }
            }
            #expect(Set(tags).count == keys.count, "each change committed its own version")
            let stored = try await service.lookup.metadata(.order, passTypeIdentifier: type, serialNumber: id)
            for (index, key) in keys.enumerated() { #expect(stored.data?[key] == .number(JSONNumber(index)), "\(key) was lost") }
            let stale = await #expect(throws: ServiceFailure.self) {
                _ = try await service.updates.update(
                    .order, passTypeIdentifier: type, serialNumber: id, data: ["late": true], voided: nil, ifMatch: [issued.pass.updateTag])
            }
            #expect(stale?.status == .preconditionFailed)
        }
    }
}
