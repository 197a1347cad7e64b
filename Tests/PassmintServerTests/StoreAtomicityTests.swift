import Foundation
import Passmint
import PassmintStore
import PassmintTestSupport
import Testing

/// What a store writes in one transaction, run against SQLite and PostgreSQL: an order's passes with their images,
/// all or none; a change's images with the pass that names them; and a change made from a version that is no longer
/// the pass's, refused whole.
@Suite struct StoreAtomicityTests {
    func sample(_ serial: String) -> StoredPass {
        StoredPass(
            passTypeIdentifier: "pass.dev.passmint.example", serialNumber: serial, authenticationToken: "token-0123456789abcdef",
            template: "Loyalty", dataJSON: #"{"points":1}"#)
    }

    func image(_ text: String) -> StoredImage {
        let bytes = Array(text.utf8)
        return StoredImage(sha256: Digest.sha256Hex(bytes), bytes: bytes)
    }

    @Test(arguments: StoreKind.allCases)
    func anOrderWithASerialThatExistsStoresNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let existing = try await store.insert(sample(unique("taken")))
            let serials = (0..<5).map { $0 == 3 ? existing.serialNumber : unique("order-\($0)") }
            let images = [image(unique("photo")), image(unique("artwork"))]
            let refusal = await #expect(throws: PassStoreError.self) {
                try await store.insert(order: serials.map(sample), images: images)
            }
            #expect(refusal?.code == .duplicate)
            #expect(refusal?.passKey?.serialNumber == existing.serialNumber, "the error names the serial that exists")
            for serial in serials where serial != existing.serialNumber {
                #expect(try await store.pass(passTypeIdentifier: existing.passTypeIdentifier, serialNumber: serial) == nil)
            }
            for image in images { #expect(try await store.image(sha256: image.sha256) == nil, "no image of the order is kept") }

            // The whole order again without the serial that exists: stored at once, images included.
            let order = serials.filter { $0 != existing.serialNumber }.map(sample)
            let stored = try await store.insert(order: order, images: images)
            #expect(stored.map(\.serialNumber) == order.map(\.serialNumber))
            if kind == .sqlite {
                #expect(stored.map(\.updateTag) == (1...Int64(order.count)).map { existing.updateTag + $0 }, "the failed order took no tag")
            } else {  // the tag is the transaction's id (see PostgresPassStore.nextTag)
                #expect(Set(stored.map(\.updateTag)).count == 1 && stored[0].updateTag > existing.updateTag, "one tag for the order")
            }
            for image in images { #expect(try await store.image(sha256: image.sha256) == image.bytes) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChangesImagesAreStoredWithItAndOnlyWithIt(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let pass = try await store.insert(sample(unique("img")))
            let (type, serial) = (pass.passTypeIdentifier, pass.serialNumber)
            let first = image(unique("first"))
            let edit = PassEdit.update(dataJSON: #"{"points":2,"image:thumbnail":"sha256:\#(first.sha256)"}"#, voided: nil, images: [first])
            let change = try #require(try await store.change(passTypeIdentifier: type, serialNumber: serial, edit, basedOn: pass.updateTag))
            #expect(change.changed && change.pass.updateTag > pass.updateTag)
            #expect(try await store.image(sha256: first.sha256) == first.bytes, "the image is stored with the pass that names it")

            // A change made from the version before: refused, and neither its image nor its data is stored.
            let second = image(unique("second"))
            let stale = PassEdit.update(
                dataJSON: #"{"points":3,"image:thumbnail":"sha256:\#(second.sha256)"}"#, voided: true, images: [second])
            let refusal = await #expect(throws: PassStoreError.self) {
                try await store.change(passTypeIdentifier: type, serialNumber: serial, stale, basedOn: pass.updateTag)
            }
            #expect(refusal?.code == .stale)
            #expect(try await store.image(sha256: second.sha256) == nil)
            #expect(try await store.pass(passTypeIdentifier: type, serialNumber: serial) == change.pass, "the pass is as it was")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeLeavesWhatItDoesNotGiveAsStored(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let pass = try await store.insert(sample(unique("keep")))
            let (type, serial) = (pass.passTypeIdentifier, pass.serialNumber)
            _ = try await store.change(passTypeIdentifier: type, serialNumber: serial, .update(dataJSON: nil, voided: true))
            let change = try #require(
                try await store.change(passTypeIdentifier: type, serialNumber: serial, .update(dataJSON: #"{"points":5}"#, voided: nil)))
            #expect(change.pass.voided, "a data change without voided leaves the pass voided")
            #expect(change.pass.dataJSON == #"{"points":5}"#)
        }
    }
}
