import Foundation
import Logging
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// What the events say when changes meet: a pass's last device leaving while another registers (on two nodes with
/// PostgreSQL), and a webhook added on one node while the last one is removed on another.
@Suite struct EventRaceTests {
    static let type = "pass.dev.passmint.example"

    /// Two stores on one database, as two nodes open it (SQLite: one file, two connections' worth of writers).
    func withTwoNodes(_ kind: StoreKind, _ body: @Sendable (any PassStore, any PassStore) async throws -> Void) async throws {
        let url = try await offPool { Result { try kind.databaseURL() } }.get()
        let first = try openPassStore(url: url, logger: Logger(label: "test.node-a"))
        try await first.whileRunning { a in
            let second = try openPassStore(url: url, logger: Logger(label: "test.node-b"))
            try await second.whileRunning { b in try await body(a, b) }
        }
    }

    func issue(_ store: any PassStore) async throws -> String {
        try await storedPass(in: store, type: Self.type, prefix: "R")
    }

    func events(_ store: any PassStore, _ serial: String) async throws -> [PassEventKind] {
        try await store.events(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4e9), limit: 100_000)
            .filter { $0.serialNumber == serial }.map(\.kind)
    }

    /// Each pass's last device unregisters on one node while a new device registers on the other: whichever commits
    /// first, the events of every pass alternate installed/removed and end installed, and the new device's leaving
    /// removes the pass.
    @Test(arguments: StoreKind.allCases)
    func theLastDeviceLeavingWhileAnotherRegistersLeavesThePassInstalled(_ kind: StoreKind) async throws {
        try await withTwoNodes(kind) { a, b in
            var serials: [String] = []
            for index in 0..<30 {
                let serial = try await issue(a)
                _ = try await a.register(
                    deviceLibraryIdentifier: "old-\(index)", pushToken: pushToken(), passTypeIdentifier: Self.type, serialNumber: serial)
                serials.append(serial)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, serial) in serials.enumerated() {
                    group.addTask {
                        _ = try await a.unregister(
                            deviceLibraryIdentifier: "old-\(index)", passTypeIdentifier: Self.type, serialNumber: serial)
                    }
                    group.addTask {
                        _ = try await b.register(
                            deviceLibraryIdentifier: "new-\(index)", pushToken: pushToken(), passTypeIdentifier: Self.type,
                            serialNumber: serial)
                    }
                }
                try await group.waitForAll()
            }
            for (index, serial) in serials.enumerated() {
                let marks = try await events(a, serial).filter { $0 == .installed || $0 == .removed }
                let alternating = marks.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? .installed : .removed) }
                #expect(alternating && marks.last == .installed, "pass \(index): \(marks)")
                _ = try await b.unregister(deviceLibraryIdentifier: "new-\(index)", passTypeIdentifier: Self.type, serialNumber: serial)
                #expect(try await events(a, serial).last == .removed, "pass \(index): the new device was its last")
            }
            #expect(try await a.deviceCounts(template: "Loyalty", passTypeIdentifier: nil) == DeviceCounts(passes: 0, devices: 0))
        }
    }

    /// A webhook is added on one node while the only other one is removed on another node: events written after both
    /// are owed to the new one (with PostgreSQL, the trigger owing deliveries is switched by whichever commits last).
    @Test(arguments: StoreKind.allCases)
    func aWebhookAddedWhileTheLastOneIsRemovedIsOwedWhatFollows(_ kind: StoreKind) async throws {
        try await withTwoNodes(kind) { a, b in
            for round in 0..<8 {
                let old = Webhook(
                    id: unique("old"), url: "https://hooks.example.com/old", events: [.issued], secret: "s", createdAt: Date())
                try await a.addWebhook(old)
                let new = Webhook(
                    id: unique("new"), url: "https://hooks.example.com/new", events: [.issued], secret: "s", createdAt: Date())
                async let removed = b.removeWebhook(id: old.id)
                async let added: Void = a.addWebhook(new)
                _ = try await (removed, added)
                let serial = try await issue(b)
                let owed = try await a.claimWebhookDeliveries(limit: 100, lease: .seconds(600))
                #expect(owed.map(\.webhookId) == [new.id] && owed.first?.event.serialNumber == serial, "round \(round): \(owed)")
                #expect(try await a.removeWebhook(id: new.id))
                _ = try await issue(a)
                #expect(try await b.claimWebhookDeliveries(limit: 100, lease: .seconds(600)).isEmpty, "round \(round): no webhook is left")
            }
        }
    }
}
