import Foundation
import Logging
import PassmintStore
import PassmintTestSupport
import Testing

/// The events both stores record in the transaction of the change that causes them (issued, updated, installed,
/// removed, push.failed, token.dead), the salted device hashes, the race of two first registrations, and pruning into
/// daily aggregates.
@Suite struct PassEventStoreTests {
    static let type = "pass.dev.passmint.example"

    func issue(_ store: any PassStore, template: String = "Loyalty") async throws -> String {
        try await storedPass(in: store, type: Self.type, prefix: "E", template: template)
    }

    func allEvents(_ store: any PassStore) async throws -> [PassEvent] {
        try await store.events(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4e9), limit: 10_000)
    }

    @Test(arguments: StoreKind.allCases)
    func changesRecordTheirEventsAndNameDevicesOnlyByHash(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let serial = try await issue(store)
            let (phone, watch) = ("phone-\(UUID().uuidString)", "watch-\(UUID().uuidString)")
            let token = pushToken()
            clock.advance(by: .seconds(10))
            _ = try await store.update(passTypeIdentifier: Self.type, serialNumber: serial, dataJSON: #"{"points":2}"#, voided: false)
            clock.advance(by: .seconds(10))
            for device in [phone, watch, phone] {
                _ = try await store.register(
                    deviceLibraryIdentifier: device, pushToken: token, passTypeIdentifier: Self.type, serialNumber: serial)
            }
            #expect(try await store.unregister(deviceLibraryIdentifier: phone, passTypeIdentifier: Self.type, serialNumber: serial))
            clock.advance(by: .seconds(10))
            #expect(try await store.unregister(deviceLibraryIdentifier: watch, passTypeIdentifier: Self.type, serialNumber: serial))
            #expect(try await !store.unregister(deviceLibraryIdentifier: watch, passTypeIdentifier: Self.type, serialNumber: serial))

            let events = try await allEvents(store)
            // Each device added or lost is an event; the first device installs, the last one leaving removes.
            #expect(events.map(\.kind) == [.issued, .updated, .installed, .registered, .unregistered, .unregistered, .removed])
            #expect(events.allSatisfy { $0.passTypeIdentifier == Self.type && $0.serialNumber == serial && $0.template == "Loyalty" })
            let start = clock.date.addingTimeInterval(-30)
            #expect(
                events.map(\.at) == [0, 10, 20, 20, 20, 30, 30].map { start.addingTimeInterval($0) }, "each at its change's time")
            let installed = try #require(events[2].deviceHash)
            let removed = try #require(events[6].deviceHash)
            #expect(installed.count == 32 && removed.count == 32 && installed != removed, "the phone installed it, the watch removed it")
            #expect(events[3].deviceHash == removed && events[4].deviceHash == installed && events[5].deviceHash == removed)
            for hash in [installed, removed] {
                #expect(!hash.contains(phone) && !hash.contains(watch) && !hash.contains(token))
            }
            #expect(events[0].deviceHash == nil && events[1].deviceHash == nil)

            // The same device on another pass: the same hash (one salt, made once).
            let other = try await issue(store)
            _ = try await store.register(
                deviceLibraryIdentifier: phone, pushToken: token, passTypeIdentifier: Self.type, serialNumber: other)
            let again = try await allEvents(store).last
            #expect(again?.kind == .installed && again?.serialNumber == other && again?.deviceHash == installed)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoDevicesRegisteringAtOnceInstallAPassOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var serials: [String] = []
            for _ in 0..<25 { serials.append(try await issue(store)) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for serial in serials {
                    for _ in 0..<2 {
                        group.addTask {
                            _ = try await store.register(
                                deviceLibraryIdentifier: unique("dev"), pushToken: pushToken(), passTypeIdentifier: Self.type,
                                serialNumber: serial)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let installs = try await allEvents(store).filter { $0.kind == .installed }
            #expect(installs.count == serials.count)
            #expect(Set(installs.map(\.serialNumber)) == Set(serials))
            #expect(try await store.deviceCounts(template: "Loyalty", passTypeIdentifier: nil) == DeviceCounts(passes: 25, devices: 50))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deadTokensAndFailedPushesAreRecorded(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (shared, alone) = (try await issue(store), try await issue(store))
            let (dying, living) = (pushToken(), pushToken())
            for (device, token, serial) in [("d1", dying, shared), ("d2", living, shared), ("d1", dying, alone)] {
                _ = try await store.register(
                    deviceLibraryIdentifier: device, pushToken: token, passTypeIdentifier: Self.type, serialNumber: serial)
            }
            _ = try await store.update(passTypeIdentifier: Self.type, serialNumber: shared, dataJSON: #"{"points":3}"#, voided: false)
            let owed = try await store.claimPushes(limit: 10, lease: .seconds(60))
            var settlement = OutboxSettlement(owed.filter { $0.pushToken == dying }, .givenUp)
            for push in owed where push.pushToken == living { settlement.add(push, .retry(at: Date())) }
            try await store.settlePushes(settlement)

            let events = try await allEvents(store).filter { ![.issued, .installed, .updated].contains($0.kind) }
            let dead = events.filter { $0.kind == .tokenDead }
            #expect(Set(dead.map(\.serialNumber)) == [shared, alone] && dead.count == 2)
            let removed = events.filter { $0.kind == .removed }
            #expect(removed.map(\.serialNumber) == [alone], "the shared pass is still on d2")
            let failed = events.filter { $0.kind == .pushFailed }
            #expect(failed.count == 1 && failed.first?.passTypeIdentifier == Self.type && failed.first?.deviceHash?.count == 32)
            #expect(try await store.deviceCounts(template: nil, passTypeIdentifier: Self.type) == DeviceCounts(passes: 1, devices: 1))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pruningKeepsDailyCounts(_ kind: StoreKind) async throws {
        let day: TimeInterval = 86_400
        let clock = ManualClock(date: Date(timeIntervalSince1970: 20_000 * day + 3600))
        try await withStore(kind, clock: clock) { store in
            for _ in 0..<3 { _ = try await issue(store) }
            _ = try await issue(store, template: "Coupon")
            clock.advance(by: .seconds(10 * 86_400))
            _ = try await issue(store)
            let fetched = PassEvent(
                kind: .fetched, passTypeIdentifier: Self.type, serialNumber: "S", template: "Loyalty",
                at: clock.date.addingTimeInterval(-day * 10 + 60),
                changeAt: clock.date.addingTimeInterval(-day * 10))
            try await store.record([fetched])

            #expect(try await store.pruneEvents(before: clock.date.addingTimeInterval(-5 * day)) == 5)
            #expect(try await allEvents(store).map(\.kind) == [.issued], "only the recent day's events are kept one by one")
            #expect(try await store.pruneEvents(before: clock.date.addingTimeInterval(-5 * day)) == 0, "pruning twice counts nothing twice")

            let query = EventCountQuery(
                from: Date(timeIntervalSince1970: 19_990 * day), to: clock.date.addingTimeInterval(day), intervalMilliseconds: 86_400_000,
                template: "Loyalty")
            let counts = try await store.eventCounts(query)
            #expect(
                counts == [
                    EventCount(start: Date(timeIntervalSince1970: 20_000 * day), kind: .fetched, count: 1, withinHour: 1, withinDay: 1),
                    EventCount(start: Date(timeIntervalSince1970: 20_000 * day), kind: .issued, count: 3),
                    EventCount(start: Date(timeIntervalSince1970: 20_010 * day), kind: .issued, count: 1),
                ])
        }
    }

    @Test func theSaltOutlivesTheProcess() async throws {
        let path = TestEnvironment.temporaryFolder("sqlite").appendingPathComponent("salt.sqlite").path
        var hashes: [String?] = []
        for round in 0..<2 {
            let store = try SQLitePassStore(path: path)
            try await store.migrate()
            let serial = try await issue(store)
            _ = try await store.register(
                deviceLibraryIdentifier: "the-phone", pushToken: pushToken(), passTypeIdentifier: Self.type, serialNumber: serial)
            hashes.append(try await allEvents(store).last?.deviceHash)
            #expect(hashes.count == round + 1)
        }
        #expect(hashes[0] != nil && hashes[0] == hashes[1])
    }
}
