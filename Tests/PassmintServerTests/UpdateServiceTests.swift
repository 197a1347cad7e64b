import Foundation
import HTTPTypes
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import Synchronization
import Testing

/// Answers each push token as told (delivered unless listed), and records what was pushed.
final class ScriptedPushSender: PushSender {
    let answers: [String: PushOutcome.Result]
    let pushed = Mutex<[[String]]>([])

    init(_ answers: [String: PushOutcome.Result] = [:]) { self.answers = answers }

    func push(topic: String, pushTokens: [String]) async -> [PushOutcome] {
        pushed.withLock { $0.append(pushTokens) }
        return pushTokens.map { token in
            let result = answers[token] ?? .delivered
            return PushOutcome(pushToken: token, result: result, status: result == .delivered ? 200 : 410, reason: nil, attempts: 1)
        }
    }
}

/// Updates at the service: nothing changed means nothing pushed; a change is checked, stored, signed and pushed to
/// the devices registered when it committed, and the outcome kept with the pass.
@Suite struct UpdateServiceTests {
    @Test(arguments: StoreKind.allCases)
    func aChangeIsPushedOnceATokenAndItsOutcomeKept(_ kind: StoreKind) async throws {
        let gone = pushToken()
        let shared = pushToken()
        let push = ScriptedPushSender([gone: .unregistered])
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: push)
            let issued = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("U")))
            let (type, serial) = (issued.pass.passTypeIdentifier, issued.pass.serialNumber)
            for token in [shared, shared, gone] {  // two devices share a token: one push for both
                _ = try await service.registrations.register(
                    device: unique("dev"), pushToken: token, passTypeIdentifier: type, serialNumber: serial)
            }

            let points = try #require(issued.data["points"])
            let updates = service.updates
            let same = try await updates.update(passTypeIdentifier: type, serialNumber: serial, data: ["points": points], voided: false)
            #expect(same.changed == false && same.push == nil && same.pass == issued.pass && same.registrations == 3)
            #expect(push.pushed.withLock { $0.isEmpty })

            let data: JSONObject = ["points": 9, "serialNumber": "ignored", "authenticationToken": "ignored-0123456789"]
            let updated = try await service.updates.update(passTypeIdentifier: type, serialNumber: serial, data: data, voided: nil)
            #expect(updated.changed == true && updated.pass.updateTag > issued.pass.updateTag)
            #expect(updated.data?["points"] == 9 && updated.data?["serialNumber"] == .string(serial), "the serial and token stay")
            #expect(updated.pass.authenticationToken == issued.pass.authenticationToken)
            #expect(push.pushed.withLock { $0 } == [[gone, shared].sorted()])
            #expect(updated.push?.delivered == 1 && updated.push?.unregisteredPushTokens == [gone])
            #expect(updated.registrations == 2, "the device APNs refused is gone")
            let stored = try #require(try await store.pass(passTypeIdentifier: type, serialNumber: serial))
            #expect(try JSONParser.value(Array((stored.lastPushJSON ?? "").utf8)) == updated.push?.json)
            #expect(try await store.registrations(passTypeIdentifier: type, serialNumber: serial).map(\.pushToken) == [shared, shared])
            #expect(service.pusher.statistics.updates == 1 && service.pusher.statistics.unregistered == 1)
        }
    }

    @Test func dataThatBreaksThePassIsRefusedAndNothingChanges() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let issued = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("U")))
            let (type, serial) = (issued.pass.passTypeIdentifier, issued.pass.serialNumber)
            await #expect {
                let data: JSONObject = ["memberSince": "last week"]
                return try await service.updates.update(passTypeIdentifier: type, serialNumber: serial, data: data, voided: nil)
            } throws: { ($0 as? ServiceFailure)?.status == .unprocessableContent }
            #expect(try await store.pass(passTypeIdentifier: type, serialNumber: serial) == issued.pass)
            await #expect(throws: ServiceFailure.notFound) {
                try await service.updates.update(passTypeIdentifier: type, serialNumber: unique("none"), data: [:], voided: true)
            }
        }
    }
}
