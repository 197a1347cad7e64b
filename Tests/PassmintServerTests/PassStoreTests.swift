import Foundation
import PassmintStore
import PassmintTestSupport
import Testing

/// One conformance suite, run against SQLite and PostgreSQL.
@Suite struct PassStoreTests {
    func sample(_ serial: String, type: String = "pass.dev.passmint.example") -> StoredPass {
        StoredPass(
            passTypeIdentifier: type, serialNumber: serial, authenticationToken: "token-0123456789abcdef", template: "Loyalty",
            dataJSON: #"{"points":1}"#)
    }

    @Test(arguments: StoreKind.allCases)
    func passesGetIncreasingTagsAndDates(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let serial = unique("S")
            let first = try await store.insert(sample(serial))
            #expect(first.updateTag > 0)
            await #expect(throws: PassStoreError.self) { try await store.insert(sample(serial)) }
            let fetched = try #require(try await store.pass(passTypeIdentifier: first.passTypeIdentifier, serialNumber: serial))
            #expect(fetched.authenticationToken == "token-0123456789abcdef")
            let change = try #require(
                try await store.update(
                    passTypeIdentifier: first.passTypeIdentifier, serialNumber: serial, dataJSON: #"{"points":2}"#, voided: true))
            #expect(change.changed && change.registrations.isEmpty)
            let updated = change.pass
            #expect(updated.updateTag > first.updateTag)
            #expect(updated.updatedAt > first.updatedAt)
            #expect(updated.voided)
            #expect(updated.authenticationToken == first.authenticationToken)
            #expect(try await store.update(passTypeIdentifier: "pass.none", serialNumber: serial, dataJSON: "{}", voided: false) == nil)
            #expect(try await store.pass(passTypeIdentifier: "pass.none", serialNumber: serial) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theFirstSignUpWins(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let pass = try await store.insert(sample(unique("P")))
            let type = pass.passTypeIdentifier
            #expect(try await store.personalize(passTypeIdentifier: type, serialNumber: unique("none"), personalizationJSON: "{}") == nil)
            // Sign-ups racing for one pass: exactly one is stored, and every caller sees which.
            let infos = (0..<8).map { #"{"fullName":"User \#($0)"}"# }
            let changes = try await withThrowingTaskGroup(of: PassChange?.self) { group in
                for info in infos {
                    group.addTask {
                        try await store.personalize(passTypeIdentifier: type, serialNumber: pass.serialNumber, personalizationJSON: info)
                    }
                }
                return try await group.reduce(into: [PassChange]()) { if let change = $1 { $0.append(change) } }
            }
            #expect(changes.filter(\.changed).count == 1, "one sign-up changed the pass; the others found it personalized")
            let results = changes.map(\.pass)
            let stored = try #require(try await store.pass(passTypeIdentifier: type, serialNumber: pass.serialNumber))
            let winner = try #require(stored.personalizationJSON)
            #expect(infos.contains(winner))
            #expect(results.count == infos.count)
            #expect(
                results.allSatisfy { $0.personalizationJSON == winner && $0.updateTag == stored.updateTag }, "nobody overwrote the first")
            #expect(stored.updateTag > pass.updateTag)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func registrationsAndUpdatedSerials(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let type = "pass.dev.passmint.example"
            let a = try await store.insert(sample(unique("A")))
            let b = try await store.insert(sample(unique("B")))
            let device = unique("device")
            let token = pushToken()
            #expect(
                try await store.register(
                    deviceLibraryIdentifier: device, pushToken: token, passTypeIdentifier: type, serialNumber: a.serialNumber) == .created)
            #expect(
                try await store.register(
                    deviceLibraryIdentifier: device, pushToken: token, passTypeIdentifier: type, serialNumber: a.serialNumber)
                    == .alreadyRegistered)
            let newToken = pushToken()
            #expect(
                try await store.register(
                    deviceLibraryIdentifier: device, pushToken: newToken, passTypeIdentifier: type, serialNumber: b.serialNumber)
                    == .created)
            #expect(
                try await store.registrations(passTypeIdentifier: type, serialNumber: a.serialNumber).map(\.pushToken) == [newToken],
                "a token change is stored")

            let all = try await store.updatedSerials(deviceLibraryIdentifier: device, passTypeIdentifier: type, updatedSince: nil)
            #expect(Set(all.serialNumbers) == [a.serialNumber, b.serialNumber])
            #expect(all.lastUpdated == max(a.updateTag, b.updateTag))
            #expect(
                try await store.updatedSerials(deviceLibraryIdentifier: device, passTypeIdentifier: type, updatedSince: all.lastUpdated)
                    .serialNumbers.isEmpty)
            let changed = try #require(
                try await store.update(passTypeIdentifier: type, serialNumber: a.serialNumber, dataJSON: "{}", voided: false)
            ).pass
            let since = try await store.updatedSerials(
                deviceLibraryIdentifier: device, passTypeIdentifier: type, updatedSince: all.lastUpdated)
            #expect(since.serialNumbers == [a.serialNumber])
            #expect(since.lastUpdated == changed.updateTag)
            #expect(
                try await store.updatedSerials(deviceLibraryIdentifier: unique("nobody"), passTypeIdentifier: type, updatedSince: nil)
                    .serialNumbers.isEmpty)

            #expect(try await store.unregister(deviceLibraryIdentifier: device, passTypeIdentifier: type, serialNumber: a.serialNumber))
            #expect(!(try await store.unregister(deviceLibraryIdentifier: device, passTypeIdentifier: type, serialNumber: a.serialNumber)))
            #expect(try await store.registrations(passTypeIdentifier: type, serialNumber: b.serialNumber).count == 1)
            // A device whose token APNs refused loses its registrations, and what it is owed, when the push settles.
            let other = try await store.insert(sample(unique("C")))
            _ = try await store.register(
                deviceLibraryIdentifier: unique("device"), pushToken: token, passTypeIdentifier: type, serialNumber: other.serialNumber)
            let gone = Owed(PushTarget(pushToken: newToken, passTypeIdentifier: type), generation: 1, attempts: 0, enqueuedAt: Date())
            try await store.settlePushes(OutboxSettlement([gone], .givenUp))
            #expect(try await store.registrations(passTypeIdentifier: type, serialNumber: b.serialNumber).isEmpty)
            let others = try await store.registrations(passTypeIdentifier: type, serialNumber: other.serialNumber)
            #expect(others.count == 1, "other tokens stay")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentRegistrationsAreAllKept(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let pass = try await store.insert(sample(unique("C")))
            let devices = (0..<200).map { _ in unique("d") }
            try await withThrowingTaskGroup(of: RegistrationResult.self) { group in
                for device in devices {
                    group.addTask {
                        try await store.register(
                            deviceLibraryIdentifier: device, pushToken: pushToken(), passTypeIdentifier: pass.passTypeIdentifier,
                            serialNumber: pass.serialNumber)
                    }
                }
                for try await result in group { #expect(result == .created) }
            }
            #expect(
                try await store.registrations(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber).count == 200)
        }
    }

    @Test func sqliteRegistrationsSurviveReopeningTheFile() async throws {
        let path = TestEnvironment.temporaryFolder("sqlite").appendingPathComponent("p.sqlite").path
        let device = unique("d")
        do {
            let store = try SQLitePassStore(path: path)
            try await store.migrate()
            let pass = try await store.insert(sample("S1"))
            _ = try await store.register(
                deviceLibraryIdentifier: device, pushToken: pushToken(), passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "S1")
        }
        let reopened = try SQLitePassStore(path: path)
        try await reopened.migrate()
        #expect(
            try await reopened.registrations(passTypeIdentifier: "pass.dev.passmint.example", serialNumber: "S1").map(
                \.deviceLibraryIdentifier) == [device])
    }
}
