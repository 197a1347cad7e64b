import Foundation
import Passmint
import PassmintStore
import PassmintTestSupport
import Testing

/// The bulk insert behind lazy issuing, and the content-addressed images, on SQLite and PostgreSQL.
@Suite struct BulkImportStoreTests {
    func sample(_ serial: String, token: String = "token-0123456789abcdef") -> StoredPass {
        StoredPass(
            passTypeIdentifier: "pass.dev.passmint.example", serialNumber: serial, authenticationToken: token, template: "Loyalty",
            dataJSON: #"{"points":1}"#)
    }

    @Test(arguments: StoreKind.allCases)
    func aChunkIsInsertedOnceWithConsecutiveTags(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let prefix = unique("B")
            let passes = (0..<500).map { sample("\(prefix)-\($0)") }
            let before = try await store.insert(sample(unique("before")))
            let outcomes = try await store.insert(passes, images: [])
            #expect(outcomes == Array(repeating: .inserted, count: 500))
            var tags: [Int64] = []
            for pass in passes {
                let stored = try #require(
                    try await store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber))
                #expect(stored.dataJSON == pass.dataJSON && stored.authenticationToken == pass.authenticationToken)
                tags.append(stored.updateTag)
            }
            // SQLite gives each pass the next tag; PostgreSQL's tag is the chunk's transaction id (PostgresPassStore.nextTag).
            #expect(Set(tags).count == (kind == .sqlite ? 500 : 1), "every pass has its own tag on SQLite, the chunk's on PostgreSQL")
            #expect(tags.min()! > before.updateTag)
            // A resumed import: the stored passes stay as they are and their tokens come back for comparison.
            let again = [sample("\(prefix)-1", token: "another-token-0123456"), sample("\(prefix)-new")]
            let second = try await store.insert(again, images: [])
            #expect(second == [.existed(authenticationToken: "token-0123456789abcdef"), .inserted])
            let kept = try await store.pass(passTypeIdentifier: again[0].passTypeIdentifier, serialNumber: again[0].serialNumber)
            #expect(kept?.authenticationToken == "token-0123456789abcdef")
            // A later change still gets a greater tag than every imported pass.
            let change = try await store.update(
                passTypeIdentifier: passes[0].passTypeIdentifier, serialNumber: passes[0].serialNumber, dataJSON: "{}", voided: false)
            #expect(try #require(change).pass.updateTag > tags.max()!)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func imagesAreStoredOncePerContent(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let bytes = TestPNG.make(width: 30, height: 30, rgba: (UInt8.random(in: 0...255), 1, 2, 255))
            let image = StoredImage(sha256: Digest.sha256Hex(bytes), bytes: bytes)
            #expect(try await store.image(sha256: image.sha256) == nil)
            let prefix = unique("I")
            _ = try await store.insert([sample("\(prefix)-1"), sample("\(prefix)-2")], images: [image, image])
            _ = try await store.insert([], images: [image])  // images alone: kept as they are
            #expect(try await store.image(sha256: image.sha256) == bytes)
        }
    }
}
