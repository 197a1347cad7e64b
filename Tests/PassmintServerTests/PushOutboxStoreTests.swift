import Foundation
import Logging
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import PostgresNIO
import Synchronization
import Testing

/// The durable push queue of both stores: what a change owes, coalesced; leases; generations; settlement.
@Suite struct PushOutboxStoreTests {
    static let type = "pass.dev.passmint.example"

    func pass(_ store: any PassStore, registeredTo tokens: [String]) async throws -> String {
        let serial = unique("Q")
        _ = try await store.insert(
            StoredPass(
                passTypeIdentifier: Self.type, serialNumber: serial, authenticationToken: "token-0123456789abcdef", template: "Loyalty",
                dataJSON: #"{"points":1}"#))
        for token in tokens {
            _ = try await store.register(
                deviceLibraryIdentifier: unique("dev"), pushToken: token, passTypeIdentifier: Self.type, serialNumber: serial)
        }
        return serial
    }

    func change(_ store: any PassStore, _ serial: String, points: Int) async throws {
        _ = try await store.update(passTypeIdentifier: Self.type, serialNumber: serial, dataJSON: #"{"points":\#(points)}"#, voided: false)
    }

    @Test(arguments: StoreKind.allCases)
    func changesOweOnePushPerDeviceAndPassTypeUntilSettled(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let phone = pushToken()
            let tablet = pushToken()
            let first = try await pass(store, registeredTo: [phone])
            let second = try await pass(store, registeredTo: [phone, tablet])
            let quiet = try await pass(store, registeredTo: [])
            #expect(try await store.claimPushes(limit: 10, lease: .seconds(60)).isEmpty, "registering owes nothing")
            try await change(store, first, points: 2)
            try await change(store, second, points: 2)
            try await change(store, quiet, points: 2)
            _ = try await store.update(passTypeIdentifier: Self.type, serialNumber: first, dataJSON: #"{"points":2}"#, voided: false)
            #expect(try await store.outboxStatus(.applePush).depth == 2)

            let claimed = try await store.claimPushes(limit: 10, lease: .seconds(60))
            #expect(Set(claimed.map(\.pushToken)) == [phone, tablet] && claimed.count == 2, "one push per device and pass type")
            #expect(try await store.claimPushes(limit: 10, lease: .seconds(60)).isEmpty, "claimed pushes are leased")

            // A change after the claim: the push for the older generation settles, the newer change stays owed.
            try await change(store, first, points: 3)
            try await store.settlePushes(OutboxSettlement(claimed, .done))
            let again = try await store.claimPushes(limit: 10, lease: .seconds(60))
            #expect(again.map(\.pushToken) == [phone], "owed again by the newer change")
            #expect(again.first.map { $0.generation > claimed.first { $0.pushToken == phone }!.generation } == true)

            // A failure comes back after its back-off; a gone token takes its registrations with it.
            try await store.settlePushes(OutboxSettlement([again[0]], .retry(at: Date().addingTimeInterval(3600))))
            let waiting = try await store.outboxStatus(.applePush)
            #expect(waiting.depth == 1 && waiting.due == 0)
            #expect(try await store.claimPushes(limit: 10, lease: .seconds(60)).isEmpty)
            try await store.settlePushes(OutboxSettlement(again, .givenUp))
            #expect(try await store.registrations(passTypeIdentifier: Self.type, serialNumber: first).isEmpty)
            #expect(try await store.outboxStatus(.applePush).depth == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLeaseThatRunsOutGivesThePushesToTheNextClaim(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let token = pushToken()
            try await change(store, try await pass(store, registeredTo: [token]), points: 5)
            let dead = try await store.claimPushes(limit: 10, lease: .seconds(5))  // a node that dies holding it
            #expect(dead.map(\.pushToken) == [token])
            clock.advance(by: .milliseconds(4_999))
            #expect(try await store.claimPushes(limit: 10, lease: .seconds(60)).isEmpty, "held while the lease lasts")
            clock.advance(by: .milliseconds(1))
            let taken = try await store.claimPushes(limit: 10, lease: .seconds(60))
            #expect(taken.map(\.pushToken) == [token], "taken by the next claim once the lease ran out")
        }
    }

    /// A delivered round settling on one node while another node's change owes the same device again: whichever
    /// commits first, the newer change stays owed and free to claim (the settlement deletes a row only at the
    /// generation its push covered, as it finds the row once it holds it).
    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests)) func aSettlementRacingAChangeLeavesTheChangeOwed() async throws {
        try await withTwoNodes { stores in
            let tokens = (0..<8).map { _ in pushToken() }
            var serials: [String] = []
            for token in tokens { serials.append(try await pass(stores[0], registeredTo: [token])) }
            for round in 0..<40 {
                for serial in serials { try await change(stores[0], serial, points: 2 * round) }
                let claimed = try await stores[1].claimPushes(limit: 100, lease: .seconds(60))
                #expect(Set(claimed.map(\.pushToken)) == Set(tokens))
                // Each pass changed again while the round settles as delivered, on the other node.
                try await withThrowingTaskGroup(of: Void.self) { race in
                    race.addTask { try await stores[1].settlePushes(OutboxSettlement(claimed, .done)) }
                    for serial in serials { race.addTask { try await change(stores[0], serial, points: 2 * round + 1) } }
                    try await race.waitForAll()
                }
                let owed = try await stores[1].claimPushes(limit: 100, lease: .seconds(60))
                #expect(Set(owed.map(\.pushToken)) == Set(tokens), "round \(round): every newer change still owed")
                try await stores[0].settlePushes(OutboxSettlement(owed, .done))
                #expect(try await stores[0].outboxStatus(.applePush).depth == 0, "round \(round): settled rows leave the queue")
            }
        }
    }

    /// Two nodes claim from one PostgreSQL queue at once: every push goes to exactly one of them.
    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests)) func twoNodesClaimDisjointPushes() async throws {
        try await withTwoNodes { stores in
            var tokens: Set<String> = []
            for _ in 0..<300 {
                let token = pushToken()
                tokens.insert(token)
                try await change(stores[0], try await pass(stores[0], registeredTo: [token]), points: 9)
            }
            let claims = try await withThrowingTaskGroup(of: [Owed<PushTarget>].self) { claimers in
                for store in stores {
                    claimers.addTask {
                        var mine: [Owed<PushTarget>] = []
                        while true {
                            let batch = try await store.claimPushes(limit: 7, lease: .seconds(60))
                            if batch.isEmpty { return mine }
                            mine += batch
                        }
                    }
                }
                return try await claimers.reduce(into: [[Owed<PushTarget>]]()) { $0.append($1) }
            }
            let all = claims.flatMap { $0 }.map(\.pushToken)
            #expect(all.count == 300 && Set(all) == tokens, "each push claimed once: \(claims.map(\.count))")
        }
    }

    /// Two stores on one fresh PostgreSQL database, each with its own client (two nodes), migrated.
    func withTwoNodes(_ body: ([PostgresPassStore]) async throws -> Void) async throws {
        let url = try await offPool { Result { try TestEnvironment.freshPostgresURL() } }.get()
        let logger = Logger(label: "test.outbox")
        let clients = try [PostgresPassStore.client(url: url, logger: logger), PostgresPassStore.client(url: url, logger: logger)]
        let stores = clients.map { PostgresPassStore(client: $0, logger: logger) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            try await stores[0].migrate()
            try await body(stores)
            group.cancelAll()
        }
    }
}
