import Foundation
import HTTPTypes
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// Issuing one pass, or an order all or nothing, at the service (the HTTP edge has its own tests).
@Suite struct IssuingServiceTests {
    @Test(arguments: StoreKind.allCases)
    func issuesAPassAndRefusesWhatCannotBeOne(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let serial = unique("I")
            let issued = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: serial))
            #expect(issued.pass.serialNumber == serial && issued.pass.passTypeIdentifier == ServiceHarness.passType)
            #expect(issued.pass.authenticationToken.count == 22, "a generated token: 128 bits, base64url")
            #expect(issued.data["authenticationToken"] == .string(issued.pass.authenticationToken))
            #expect(try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial) == issued.pass)
            let latest = try await service.downloads.latestPass(issued.pass)
            #expect(Array(buffer: latest) == Array(buffer: issued.archive), "the signed bytes are this version's")

            await #expect(
                throws: ServiceFailure.conflict(
                    "a pass with serial number \(serial) already exists; PATCH it to change it", code: "pass-exists")
            ) {
                try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: serial))
            }
            var bad = try ServiceHarness.loyaltyData(serial: "bad serial")
            await #expect(throws: ServiceFailure.badRequest("serialNumber must be 1–128 URL-safe characters")) {
                try await service.issuing.issue(template: "Loyalty", data: bad)
            }
            bad = try ServiceHarness.loyaltyData(serial: unique("I"))
            bad["authenticationToken"] = "short"
            await #expect(throws: ServiceFailure.badRequest("authenticationToken must have at least 16 characters")) {
                try await service.issuing.issue(template: "Loyalty", data: bad)
            }
            bad["authenticationToken"] = nil
            bad["memberName"] = nil
            await #expect {
                try await service.issuing.issue(template: "Loyalty", data: bad)
            } throws: { ($0 as? ServiceFailure)?.status == .unprocessableContent }
            let refused = try #require(bad["serialNumber"]?.stringValue)
            #expect(try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: refused) == nil)
        }
    }

    @Test func anOrderNamesThePassThatFailsAndStoresNothing() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let serial = unique("O")
            let orders = try [serial, serial].map {
                IssuingService.Order(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: $0))
            }
            await #expect(throws: ServiceFailure.badRequest("passes[1]: serial number \(serial) appears twice in this order")) {
                try await service.issuing.issue(orders: orders)
            }
            await #expect {
                try await service.issuing.issue(orders: [IssuingService.Order(template: "Nope", data: [:])])
            } throws: { error in
                let failure = error as? ServiceFailure
                return failure?.code == "unknown-template" && failure?.message?.hasPrefix("passes[0]: no template named Nope: ") == true
            }
            #expect(try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial) == nil)
            let issued = try await service.issuing.issue(orders: [orders[0]])
            #expect(try PassBundle.read(issued.bundle, source: "order").count == 1)
            #expect(issued.passes.map(\.pass.serialNumber) == [serial])
            #expect(try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial) != nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anOrderBrokenAtItsFourthPassStoresNoneOfIt(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let taken = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("taken")))
            let serials = (0..<5).map { $0 == 3 ? taken.pass.serialNumber : unique("order-\($0)") }
            let orders = try serials.map { IssuingService.Order(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: $0)) }
            let message = "passes[3]: a pass with serial number \(taken.pass.serialNumber) already exists; PATCH it to change it"
            await #expect(throws: ServiceFailure.conflict(message, code: "pass-exists")) { try await service.issuing.issue(orders: orders) }
            for serial in serials where serial != taken.pass.serialNumber {
                #expect(try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial) == nil)
            }
            // Nothing of the order was ever written: on SQLite the next pass takes the tag right after the one issued
            // before it (PostgreSQL's tags are transaction ids: the rolled-back order used one).
            let next = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("next")))
            #expect(kind == .sqlite ? next.pass.updateTag == taken.pass.updateTag + 1 : next.pass.updateTag > taken.pass.updateTag)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusedPassKeepsNoneOfItsImages(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let serial = unique("I")
            let data = { (serial: String) in try PassImagesRoutesTests.genericData(serial: serial) }
            _ = try await service.issuing.issue(template: "Generic", data: try data(serial))
            let photo = TestPNG.make(width: 180, height: 180, rgba: (UInt8.random(in: 0...255), UInt8.random(in: 0...255), 7, 255))
            let images: JSONObject = ["thumbnail@2x": .string(Data(photo).base64EncodedString())]
            let sha256 = Digest.sha256Hex(photo)
            await #expect(
                throws: ServiceFailure.conflict(
                    "a pass with serial number \(serial) already exists; PATCH it to change it", code: "pass-exists")
            ) {
                try await service.issuing.issue(template: "Generic", data: try data(serial), images: images)
            }
            #expect(try await store.image(sha256: sha256) == nil, "the image went with the pass that was refused")
            let issued = try await service.issuing.issue(template: "Generic", data: try data(unique("I")), images: images)
            #expect(issued.data["image:thumbnail@2x"] == .string("sha256:\(sha256)"))
            #expect(try await store.image(sha256: sha256) != nil, "stored with the pass that names it")
        }
    }
}
