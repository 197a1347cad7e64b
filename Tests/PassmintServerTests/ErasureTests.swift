import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

@testable import PassmintServer

/// `DELETE /api/v1/passes/{type}/{serial}` (issue 39 item 14): the pass's personal data erased in one store
/// transaction, the pass voided for the devices that hold it, its links gone, its serial kept as a tombstone; and
/// un-voiding only when asked for.
@Suite struct ErasureTests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]
    static let type = ServiceHarness.passType
    /// Values of the sample data no version of an erased pass may hold.
    static let personal = ["Zoë", "Müller", "4711-0815", "MLC1:"]

    static func json(_ response: ServiceResponse) throws -> JSONValue { try JSONParser.value(Array(response.body.readableBytesView)) }

    static func row(_ store: any PassStore, _ serial: String) async throws -> [String: String?] {
        let inspection = try #require(store as? any PassStoreInspection)
        return try #require(try await inspection.passRow(passTypeIdentifier: type, serialNumber: serial))
    }

    @Test(arguments: StoreKind.allCases)
    func erasureRemovesTheDataVoidsThePassAndKeepsATombstone(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let push = RecordingPushSender()
            let service = try ServiceHarness.service(store: store, push: push, linkSecret: PassLinksTests.secret)
            try await buildApplication(core: service, logger: Logger(label: "erase")).serviceTest(.router) { client in
                let serial = unique("ERASE")
                let issued = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: try ServiceHarness.issueBody(serial: serial))
                #expect(issued.status == .created)
                let metadata = try Self.json(issued)
                let token = try #require(metadata["authenticationToken"]?.stringValue)
                let download = SharingRoutesTests.local(try #require(metadata["links"]?["download"]?.stringValue))
                let add = SharingRoutesTests.local(try #require(metadata["links"]?["add"]?.stringValue))
                let apple: HTTPFields = [.authorization: "ApplePass \(token)"]
                let device = unique("iphone")
                let registration = "/wallet/v1/devices/\(device)/registrations/\(Self.type)/\(serial)"
                let registered = try await client.execute(
                    uri: registration, method: .post, headers: apple, body: ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#))
                #expect(registered.status == .created)
                let uri = "/api/v1/passes/\(Self.type)/\(serial)"

                // If-Match a version the pass is not at: refused, nothing erased.
                var stale = Self.bearer
                stale[.ifMatch] = "\"999999999\""
                #expect(try await client.execute(uri: uri, method: .delete, headers: stale).status == .preconditionFailed)
                #expect(try await Self.row(store, serial)["erased_at"] == .some(nil))

                let erased = try await client.execute(uri: uri, method: .delete, headers: Self.bearer)
                #expect(erased.status == .ok, "\(String(buffer: erased.body))")
                let tombstone = try Self.json(erased)
                #expect(tombstone["voided"] == true && tombstone["changed"] == true && tombstone["push"]?["queued"] == 1)
                #expect(tombstone["erasedAt"]?.stringValue != nil && tombstone["links"] == nil)
                #expect(tombstone["data"] == .object([:]) && tombstone["personalization"] == .null)

                // The database holds nothing of the person: the row is a tombstone, and the push to the device is owed.
                let row = try await Self.row(store, serial)
                #expect(row["data"] == .some("{}") && row["personalization"] == .some(nil) && row["voided"] == .some("1"))
                #expect((row["erased_at"] ?? nil) != nil)
                // (The push queue may have sent it already: the push itself is counted.)
                try await service.pushQueue.drain()
                #expect(await eventually { push.pushes.withLock { $0.flatMap(\.tokens) }.count == 1 })

                // The device fetches the voided version, signed, without the person's values.
                let fetched = try await client.execute(uri: "/wallet/v1/passes/\(Self.type)/\(serial)", method: .get, headers: apple)
                #expect(fetched.status == .ok)
                let root = try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path)
                #expect(PassVerifier(root: root).verify(Array(fetched.body.readableBytesView), source: "fetched").isValid)
                let passJSON = String(
                    decoding: try #require(PersonalizationTests.entries(Array(fetched.body.readableBytesView))["pass.json"]), as: UTF8.self)
                #expect(try JSONParser.value(Array(passJSON.utf8))["voided"] == true)
                #expect(try JSONParser.value(Array(passJSON.utf8))["serialNumber"]?.stringValue == serial)
                for value in Self.personal { #expect(!passJSON.contains(value), "pass.json still holds \(value)") }

                // Its links are gone: 410, the add page as a page.
                let gone = try await client.execute(uri: download, method: .get)
                #expect(gone.status == .gone && String(buffer: gone.body).contains("link-gone"))
                let page = try await client.execute(uri: add, method: .get)
                #expect(page.status == .gone && page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(String(buffer: page.body).contains("no longer available"))

                // The serial is not issued again; the pass takes no change; a GET answers the tombstone.
                let again = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: try ServiceHarness.issueBody(serial: serial))
                #expect(again.status == .conflict)
                #expect(try Self.json(again)["error"]?["code"] == "pass-erased")
                let message = try #require(try Self.json(again)["error"]?["message"]?.stringValue)
                #expect(message.contains("was erased on") && message.contains("pick another serial number"), "\(message)")
                let patch = try await client.execute(
                    uri: uri, method: .patch, headers: Self.bearer, body: ByteBuffer(string: #"{"data":{"memberName":"Zoë"}}"#))
                let patchError = try Self.json(patch)["error"]
                #expect(patch.status == .gone && patchError?["code"] == "pass-erased")
                let unvoid = try await client.execute(
                    uri: uri + "?unvoid=true", method: .patch, headers: Self.bearer, body: ByteBuffer(string: #"{"voided":false}"#))
                #expect(unvoid.status == .gone, "an erased pass is never un-voided")
                let read = try await client.execute(uri: uri, method: .get, headers: Self.bearer)
                let readJSON = try Self.json(read)
                #expect(read.status == .ok)
                #expect(readJSON["erasedAt"] == tombstone["erasedAt"] && readJSON["links"] == nil)
                for value in Self.personal { #expect(!String(buffer: read.body).contains(value)) }

                // A second DELETE answers the same tombstone: no new version, nothing owed again.
                let second = try await client.execute(uri: uri, method: .delete, headers: Self.bearer)
                let secondJSON = try Self.json(second)
                #expect(second.status == .ok && secondJSON["changed"] == false && secondJSON["push"] == nil)
                #expect(secondJSON["updateTag"] == tombstone["updateTag"] && second.headers[.eTag] == erased.headers[.eTag])
                #expect(try await store.outboxStatus(.applePush).depth == 0, "no push owed again")
                try await service.pushQueue.drain()
                #expect(push.pushes.withLock { $0.flatMap(\.tokens) }.count == 1, "one push in all")

                // The device leaves as usual.
                #expect(try await client.execute(uri: registration, method: .delete, headers: apple).status == .ok)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unVoidingNeedsTheFlag(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender(), linkSecret: PassLinksTests.secret)
            let issued = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("VOID")))
            let uri = "/api/v1/passes/\(Self.type)/\(issued.pass.serialNumber)"
            let download = SharingRoutesTests.local(try #require(service.sharing.links(for: issued.pass)?.download))
            try await buildApplication(core: service, logger: Logger(label: "unvoid")).serviceTest(.router) { client in
                func patch(_ query: String, _ body: String) async throws -> ServiceResponse {
                    try await client.execute(uri: uri + query, method: .patch, headers: Self.bearer, body: ByteBuffer(string: body))
                }
                #expect(try await patch("", #"{"voided":false}"#).status == .ok, "a pass not voided: nothing to un-void")
                #expect(try await client.execute(uri: download, method: .get).status == .ok)
                #expect(try await patch("", #"{"voided":true}"#).status == .ok)
                #expect(try await client.execute(uri: download, method: .get).status == .gone, "a voided pass's download link")

                let refused = try await patch("", #"{"voided":false,"data":{"points":3}}"#)
                #expect(refused.status == .conflict)
                #expect(try Self.json(refused)["error"]?["code"] == "pass-voided")
                #expect(try Self.json(refused)["error"]?["message"]?.stringValue?.contains("?unvoid=true") == true)
                #expect(try await store.pass(passTypeIdentifier: Self.type, serialNumber: issued.pass.serialNumber)?.voided == true)
                #expect(try await patch("?unvoid=maybe", #"{"voided":false}"#).status == .badRequest)
                #expect(try await patch("", #"{"data":{"points":4}}"#).status == .ok, "a voided pass's data may change")

                let unvoided = try await patch("?unvoid=true", #"{"voided":false}"#)
                let unvoidedJSON = try Self.json(unvoided)
                #expect(unvoided.status == .ok && unvoidedJSON["voided"] == false)
                #expect(try await client.execute(uri: download, method: .get).status == .ok)
            }
            // A bulk update's line says it with "unvoid": true.
            #expect(
                try BulkUpdateLine.parse(Array(#"{"passTypeIdentifier":"pass.a","serialNumber":"1","voided":false,"unvoid":true}"#.utf8))
                    .get().unvoid)
        }
    }

    /// An erasure racing changes of the same pass (two tasks at once, and more) always ends erased, with no personal
    /// value left: a change that commits first is erased with the rest, one that comes after is refused with 410.
    @Test(arguments: StoreKind.allCases)
    func anErasureRacingChangesEndsErased(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            for round in 0..<4 {
                let issued = try await service.issuing.issue(
                    template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("RACE")))
                let serial = issued.pass.serialNumber
                _ = try await service.registrations.register(
                    device: unique("dev"), pushToken: pushToken(), passTypeIdentifier: Self.type, serialNumber: serial)
                let updates = service.updates
                let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                    for racer in 0..<3 {
                        group.addTask {
                            do {
                                _ = try await updates.update(
                                    passTypeIdentifier: Self.type, serialNumber: serial,
                                    data: ["memberName": .string("Zoë Racer \(round).\(racer)")], voided: nil)
                                return "patched"
                            } catch let failure as ServiceFailure where failure.code == "pass-erased" {
                                return "refused"
                            }
                        }
                    }
                    group.addTask {
                        let erased = try await updates.erase(passTypeIdentifier: Self.type, serialNumber: serial)
                        return erased.changed == true ? "erased" : "erased already"
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == "erased" }.count == 1, "\(outcomes)")
                let row = try await Self.row(store, serial)
                #expect(row["data"] == .some("{}") && row["voided"] == .some("1") && (row["erased_at"] ?? nil) != nil, "\(row)")
                let stored = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial))
                #expect(stored.erasedAt != nil && !stored.dataJSON.contains("Racer"))
            }
        }
    }

    /// Google Wallet hears of the erasure through its outbox, as of any change: its object becomes inactive, without the
    /// person's values.
    @Test(arguments: StoreKind.allCases)
    func theGoogleObjectOfAnErasedPassBecomesInactive(_ kind: StoreKind) async throws {
        try await GoogleOutboxTests.withHarness(kind) { harness, store in
            try await harness.withCore(on: store) { core in
                let serial = try await GoogleOutboxTests.issueLinked(core)
                #expect(try GoogleOutboxTests.storedObject(harness, serial).contains("Zo"))
                _ = try await core.updates.erase(passTypeIdentifier: Self.type, serialNumber: serial)
                #expect(try await store.outboxStatus(.googleObject).depth == 1)
                try await #require(core.googleUpdates).drain()
                let object = try GoogleOutboxTests.storedObject(harness, serial)
                #expect(object.contains("\"INACTIVE\""), "\(object)")
                for value in Self.personal { #expect(!object.contains(value), "the Google object still holds \(value)") }
            }
        }
    }
}
