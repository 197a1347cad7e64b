import Foundation
import Passmint
import PassmintStore
import PassmintTestSupport
import Testing

/// Per-pass images no stored pass names any more are deleted (issue 40: 30 bulk lines, each with a new photo, left
/// 360 MB in the database for the one photo still used); an image a pass still names, or one stored again since the
/// prune's cut-off, stays.
@Suite struct ImagePruneTests {
    static let type = "pass.dev.passmint.example"

    static func image(_ byte: UInt8) -> StoredImage {
        let bytes = [UInt8](repeating: byte, count: 64)
        return StoredImage(sha256: Digest.sha256Hex(bytes), bytes: bytes)
    }

    static func data(_ images: [StoredImage]) -> String {
        var object: JSONObject = ["points": 1]
        for (index, image) in images.enumerated() { object["image:thumbnail\(index)"] = .string("sha256:" + image.sha256) }
        return JSONWriter.string(.object(object), style: .compact)
    }

    @Test(arguments: StoreKind.allCases)
    func imagesNoPassNamesAreDeletedAndOthersKept(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let (old, shared, new) = (Self.image(1), Self.image(2), Self.image(3))
            let (first, second) = (unique("IMG"), unique("IMG"))
            for (serial, images) in [(first, [old, shared]), (second, [shared])] {
                _ = try await store.insert(
                    order: [
                        StoredPass(
                            passTypeIdentifier: Self.type, serialNumber: serial, authenticationToken: "token-0123456789abcdef",
                            template: "Loyalty", dataJSON: Self.data(images))
                    ], images: images)
            }
            // A change replaces the first pass's old image: nothing names it any more.
            _ = try await store.change(
                passTypeIdentifier: Self.type, serialNumber: first, .update(dataJSON: Self.data([new]), voided: nil, images: [new]),
                basedOn: nil)
            clock.advance(by: .seconds(7200))
            // Stored now by a change that names it, then no longer named by the next: younger than the cut-off below, so
            // it stays although unnamed. (A change that alters nothing writes nothing, its images included.)
            let again = Self.image(4)
            for (images, stored) in [([shared, again], [again]), ([shared], [])] {
                _ = try await store.change(
                    passTypeIdentifier: Self.type, serialNumber: second,
                    .update(dataJSON: Self.data(images), voided: nil, images: stored), basedOn: nil)
            }
            #expect(try await store.pruneImages(storedBefore: clock.date.addingTimeInterval(-3600)) == 1)
            #expect(try await store.image(sha256: old.sha256) == nil, "no pass names it")
            #expect(try await store.image(sha256: shared.sha256) != nil, "the second pass names it")
            #expect(try await store.image(sha256: new.sha256) != nil, "the first pass names it now")
            #expect(try await store.image(sha256: again.sha256) != nil, "stored after the cut-off")
            #expect(try await store.pruneImages(storedBefore: clock.date.addingTimeInterval(-3600)) == 0)
        }
    }
}
