import Foundation
import HTTPTypes
import Passmint
import PassmintServer
import PassmintStore
import Synchronization
import Testing

/// Sign-up at the service: the first information wins, a retry signs again, and what cannot be personalized says why.
@Suite struct PersonalizationServiceTests {
    @Test func theFirstSignUpIsStoredAndPushedInTheBackground() async throws {
        let push = RecordingPushSender()
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: push)
            let path = ServiceHarness.templates + "/Rewards.json"
            var data = try #require(try JSONParser.value(try FileIO.read(path, what: "sample data")).objectValue)
            data["serialNumber"] = .string(unique("R"))
            let issued = try await service.issuing.issue(template: "Rewards", data: data)
            let (type, serial) = (issued.pass.passTypeIdentifier, issued.pass.serialNumber)
            _ = try await service.registrations.register(
                device: unique("ipad"), pushToken: pushToken(), passTypeIdentifier: type, serialNumber: serial)
            let info = try PersonalizationInfo(json: ["fullName": "Zoë Müller", "emailAddress": "zoe@example.test", "postalCode": "8001"])
            let personalization = service.personalization
            let first = try await personalization.personalize(passTypeIdentifier: type, serialNumber: serial, token: "tok", info: info)
            #expect(first.pass.updateTag > issued.pass.updateTag && !first.signature.isEmpty)
            try await service.pushQueue.drain()
            #expect(push.pushes.withLock { $0.count } == 1, "the other devices are told")

            let again = try await personalization.personalize(passTypeIdentifier: type, serialNumber: serial, token: "tok", info: info)
            #expect(again.pass.updateTag == first.pass.updateTag, "a retry changes nothing")
            let other = try PersonalizationInfo(json: ["fullName": "Somebody Else", "emailAddress": "x@example.test", "postalCode": "1"])
            await #expect {
                try await personalization.personalize(passTypeIdentifier: type, serialNumber: serial, token: "tok", info: other)
            } throws: { ($0 as? ServiceFailure)?.status == .conflict }
            try await service.pushQueue.drain()
            #expect(push.pushes.withLock { $0.count } == 1)
        }
    }

    @Test func whatCannotBePersonalizedSaysWhy() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let loyalty = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("L")))
            let info = try PersonalizationInfo(json: ["fullName": "Zoë"])
            func personalize(_ serial: String, token: String = "tok") async throws {
                _ = try await service.personalization.personalize(
                    passTypeIdentifier: ServiceHarness.passType, serialNumber: serial, token: token, info: info)
            }
            await #expect(throws: ServiceFailure.notFound) { try await personalize(unique("none")) }
            await #expect {
                try await personalize(loyalty.pass.serialNumber)
            } throws: { ($0 as? ServiceFailure)?.message?.contains("is not personalizable") == true }
            await #expect {
                try await personalize(loyalty.pass.serialNumber, token: String(repeating: "t", count: 4097))
            } throws: { ($0 as? ServiceFailure)?.message?.contains("at most 4096 bytes") == true }
        }
    }
}
