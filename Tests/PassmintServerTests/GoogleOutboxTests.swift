import Foundation
import Passmint
import PassmintGoogle
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// Changes reach Google Wallet through the durable outbox: owed in the change's transaction, patched by the worker,
/// retried after a back-off, and never lost to a restart.
@Suite struct GoogleOutboxTests {
    /// Issues a Loyalty pass and makes its save link (so Google holds its object); its serial.
    static func issueLinked(_ core: ServiceCore) async throws -> String {
        let serial = unique("OUTBOX")
        let issued = try await core.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: serial))
        _ = try await #require(core.google).saveURL(for: issued.pass)
        return serial
    }

    static func setPoints(_ core: ServiceCore, _ serial: String, _ points: Int) async throws {
        _ = try await core.updates.update(
            passTypeIdentifier: ServiceHarness.passType, serialNumber: serial, data: ["points": .number(JSONNumber(points))],
            voided: nil)
    }

    /// The object Google holds for `serial`, as JSON text.
    static func storedObject(_ harness: GoogleServeHarness, _ serial: String) throws -> String {
        let id = "\(GoogleServeHarness.issuerID).\(ServiceHarness.passType).\(serial)"
        let object = try #require(
            GoogleWalletStyle.allCases.lazy.compactMap { harness.standIn.stored($0.objectCollection, id: id) }.first)
        return JSONWriter.string(.object(object), style: .compact)
    }

    /// Runs `body` with the harness and a store of `kind` on its clock, shutting both down after.
    static func withHarness(
        _ kind: StoreKind, _ body: @escaping @Sendable (GoogleServeHarness, any PassStore) async throws -> Void
    ) async throws {
        let harness = try await GoogleServeHarness.make()
        do {
            try await withStore(kind, clock: harness.clock) { try await body(harness, $0) }
            await harness.shutdown()
        } catch {
            await harness.shutdown()
            throw error
        }
    }

    static func objectPatches(_ harness: GoogleServeHarness) -> Int {
        harness.standIn.received.filter { $0.method == "PATCH" && $0.path.contains("Object/") }.count
    }

    @Test(arguments: StoreKind.allCases)
    func aRestartMidDrainLosesNoPatchAndEachObjectEndsAtItsLastVersion(_ kind: StoreKind) async throws {
        try await Self.withHarness(kind) { harness, store in
            var serials: [String] = []
            var held: [Owed<PassKey>] = []
            try await harness.withCore(on: store) { first in
                for _ in 0..<4 { serials.append(try await Self.issueLinked(first)) }
                for (index, serial) in serials.enumerated() { try await Self.setPoints(first, serial, 731_100 + index) }
                #expect(try await store.outboxStatus(.googleObject).depth == 4)
                #expect(Self.objectPatches(harness) == 0)  // owed, not yet sent
                // A node claims two and dies holding them; this node drains the rest.
                held = try await store.claimGoogleUpdates(limit: 2, lease: .seconds(60))
                try #require(held.count == 2)
                #expect(try await #require(first.googleUpdates).round() == 2)
                // One of the held passes changes again while the dead node holds it.
                try await Self.setPoints(first, held[0].serialNumber, 731_999)
            }
            let again = held[0].serialNumber

            // The restart: a new service on the same store, once the dead node's lease has ended.
            harness.clock.advance(by: .seconds(61))
            try await harness.withCore(on: store) { second in try await #require(second.googleUpdates).drain() }
            #expect(try await store.outboxStatus(.googleObject).depth == 0)
            for (index, serial) in serials.enumerated() {
                let points = serial == again ? 731_999 : 731_100 + index
                let object = try Self.storedObject(harness, serial)
                #expect(object.contains("\(points)"), "\(serial): \(object)")
            }
            // Each object patched once: the two changes of the held pass went out as one patch, to its last version.
            #expect(Self.objectPatches(harness) == 4)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusedPatchIsTriedAgainAfterItsBackOff(_ kind: StoreKind) async throws {
        try await Self.withHarness(kind) { harness, store in
            try await harness.withCore(on: store) { core in
                let queue = try #require(core.googleUpdates)
                let serial = try await Self.issueLinked(core)
                try await Self.setPoints(core, serial, 742_001)
                harness.standIn.failNext([.init(status: 403)])
                #expect(try await queue.round() == 1)
                let waiting = try await store.outboxStatus(.googleObject)
                #expect(waiting.depth == 1 && waiting.due == 0)
                #expect(try await queue.round() == 0)  // not before its back-off
                harness.clock.advance(by: .seconds(2))
                #expect(try await queue.round() == 1)
                #expect(try await store.outboxStatus(.googleObject).depth == 0)
                #expect(try Self.storedObject(harness, serial).contains("742001"))
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPassWithoutAGoogleObjectOwesNoPatchAndOneChangedBeforeItsLinkIsNoted(_ kind: StoreKind) async throws {
        try await Self.withHarness(kind) { harness, store in
            try await harness.withCore(on: store) { core in
                let serial = unique("NOLINK")
                let issued = try await core.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: serial))
                try await Self.setPoints(core, serial, 753_001)
                #expect(try await store.outboxStatus(.googleObject).depth == 0)
                // The link is made from the version read before a change committed: the note owes the patch at once.
                _ = try await #require(core.google).saveURL(for: issued.pass)
                #expect(try await store.outboxStatus(.googleObject).depth == 1)
                try await #require(core.googleUpdates).drain()
                #expect(try Self.storedObject(harness, serial).contains("753001"))
            }
        }
    }
}
