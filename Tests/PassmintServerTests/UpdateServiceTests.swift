import Foundation
import HTTPTypes
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import PassmintTestSupport
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
    /// A bulk update makes a pass's change from the chunk's one read of its passes: a pass changed since that read is
    /// changed again from the version stored, and no change is lost. The store reads many passes in one call.
    @Test(arguments: StoreKind.allCases)
    func aChangeMadeFromAnOlderReadKeepsTheChangeThatCameBetween(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: ScriptedPushSender())
            let serials = [unique("C"), unique("C")]
            for serial in serials {
                _ = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: serial))
            }
            let type = ServiceHarness.passType
            let keys = (serials + ["NO-SUCH-PASS"]).map { PassKey(passTypeIdentifier: type, serialNumber: $0) }
            let read = try await store.passes(keys)
            #expect(Set(read.keys.map(\.serialNumber)) == Set(serials), "the stored passes of the keys, the missing one left out")

            let older = try #require(read[keys[0]])
            _ = try await service.updates.update(passTypeIdentifier: type, serialNumber: serials[0], data: ["points": 42], voided: nil)
            let made = try await service.updates.update(
                passTypeIdentifier: type, serialNumber: serials[0], data: ["memberName": "Ada Older"], voided: nil, signs: false,
                read: older)
            #expect(made.changed == true)
            #expect(made.data?["points"] == 42 && made.data?["memberName"] == "Ada Older", "both changes kept: \(made.data)")
            let stored = try #require(try await store.pass(passTypeIdentifier: type, serialNumber: serials[0]))
            #expect(stored.updateTag == made.pass.updateTag && stored.dataJSON.contains("Ada Older") && stored.dataJSON.contains("42"))
        }
    }

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
            #expect(same.changed == false && same.queuedPushes == nil && same.pass == issued.pass && same.registrations == 3)
            #expect(try await store.outboxStatus(.applePush).depth == 0, "nothing changed: nothing owed")

            let data: JSONObject = ["points": 9, "serialNumber": "ignored", "authenticationToken": "ignored-0123456789"]
            let updated = try await service.updates.update(passTypeIdentifier: type, serialNumber: serial, data: data, voided: nil)
            #expect(updated.changed == true && updated.pass.updateTag > issued.pass.updateTag)
            #expect(updated.data?["points"] == 9 && updated.data?["serialNumber"] == .string(serial), "the serial and token stay")
            #expect(updated.pass.authenticationToken == issued.pass.authenticationToken)
            // The answer comes with the commit: the pushes are owed in the store, not sent yet.
            #expect(updated.queuedPushes == 2, "two distinct tokens")
            #expect(push.pushed.withLock { $0.isEmpty })
            #expect(try await store.outboxStatus(.applePush).depth == 2)
            var states = try await store.pushStates(passTypeIdentifier: type, serialNumber: serial)
            #expect(states.count == 3 && states.allSatisfy(\.pending))

            // A second change before the queue runs: still one push per token (coalesced).
            _ = try await service.updates.update(passTypeIdentifier: type, serialNumber: serial, data: ["points": 10], voided: nil)
            #expect(try await store.outboxStatus(.applePush).depth == 2)
            try await service.pushQueue.drain()
            #expect(push.pushed.withLock { $0 } == [[gone, shared].sorted()])
            #expect(try await store.outboxStatus(.applePush).depth == 0)
            #expect(try await store.registrations(passTypeIdentifier: type, serialNumber: serial).map(\.pushToken) == [shared, shared])
            states = try await store.pushStates(passTypeIdentifier: type, serialNumber: serial)
            #expect(states.count == 2 && states.allSatisfy { !$0.pending })
            #expect(states.allSatisfy { (try? JSONParser.value(Array(($0.lastResultJSON ?? "").utf8)))?["result"] == "delivered" })
            let statistics = service.pushQueue.statistics
            #expect(statistics.delivered == 1 && statistics.unregistered == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedPushStaysOwedAndANewerChangeIsPushedAgain(_ kind: StoreKind) async throws {
        let token = pushToken()
        let push = ScriptedPushSender([token: .failed])
        // The store and the push queue read one clock that does not move: the failed push's back-off never runs out
        // during the test, however slow the machine.
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let service = try ServiceHarness.service(store: store, push: push, clock: clock.today)
            let issued = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("F")))
            let (type, serial) = (issued.pass.passTypeIdentifier, issued.pass.serialNumber)
            _ = try await service.registrations.register(
                device: unique("dev"), pushToken: token, passTypeIdentifier: type, serialNumber: serial)
            _ = try await service.updates.update(passTypeIdentifier: type, serialNumber: serial, data: ["points": 3], voided: nil)
            try await service.pushQueue.drain()
            #expect(push.pushed.withLock { $0.count } == 1)
            // Failed: owed again after a back-off, not now.
            #expect(try await store.outboxStatus(.applePush).depth == 1)
            #expect(try await service.pushQueue.round() == 0, "not due yet")
            let state = try #require(try await store.pushStates(passTypeIdentifier: type, serialNumber: serial).first)
            let last = try JSONParser.value(Array((state.lastResultJSON ?? "").utf8))
            #expect(state.pending && last["result"] == "failed")
            // A newer change makes it due at once.
            _ = try await service.updates.update(passTypeIdentifier: type, serialNumber: serial, data: ["points": 4], voided: nil)
            #expect(try await service.pushQueue.round() == 1)
            #expect(push.pushed.withLock { $0.count } == 2)
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
            } throws: { error in
                // Where the broken value is, without the server's paths.
                let failure = error as? ServiceFailure
                return failure?.status == .unprocessableContent && failure?.message?.contains(ServiceHarness.templates) == false
                    && failure?.message?.contains("Loyalty.pass/pass.json") == true
            }
            #expect(try await store.pass(passTypeIdentifier: type, serialNumber: serial) == issued.pass)
            await #expect(throws: ServiceFailure.notFound) {
                try await service.updates.update(passTypeIdentifier: type, serialNumber: unique("none"), data: [:], voided: true)
            }
        }
    }
}
