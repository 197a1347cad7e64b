import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// Per-pass images: a member's photo in a batch column replaces the template's thumbnail for that pass only.
@Suite(.computeThreads) struct PassImagesTests {
    static var generic: String { TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Generic.pass").path }

    static let header = "serialNumber,memberName,firstName,memberId,plan,homeLocation,memberSince,validUntil,image:thumbnail@2x\n"

    static func row(_ serial: String, photo: String) -> String {
        "\(serial),Ana Peña,Ana,PM-1,Flex,Frankfurt,2024-03-01T09:00:00+01:00,2027-02-28T23:59:00+01:00,\(photo)\n"
    }

    static func entries(_ path: String) throws -> [String: [UInt8]] {
        let bytes = try FileIO.read(path, what: "pass")
        return Dictionary(uniqueKeysWithValues: try ZipArchive.read(bytes, source: path).map { ($0.name, $0.bytes) })
    }

    @Test func aPhotoColumnGivesEachMemberTheirThumbnail() async throws {
        let folder = TestEnvironment.temporaryFolder("pass-images")
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let zoe = TestPNG.make(width: 180, height: 180, rgba: (0xC0, 0x30, 0x30, 0xFF))
        let shared = TestPNG.make(width: 160, height: 160, rgba: (0x30, 0x30, 0xC0, 0xFF))
        try Data(zoe).write(to: photos.appendingPathComponent("zoe.png"))
        try Data(shared).write(to: photos.appendingPathComponent("shared.png"))
        try Data(TestPNG.make(width: 600, height: 600)).write(to: photos.appendingPathComponent("huge.png"))
        try Data("not a png".utf8).write(to: photos.appendingPathComponent("broken.png"))
        var csv = Self.header
        csv += Self.row("P-1", photo: "photos/zoe.png")
        csv += Self.row("P-2", photo: "photos/shared.png")
        csv += Self.row("P-3", photo: "photos/shared.png")
        csv += Self.row("P-4", photo: "")  // keeps the template's thumbnail
        csv += Self.row("P-5", photo: "photos/missing.png")
        csv += Self.row("P-6", photo: "photos/huge.png")
        csv += Self.row("P-7", photo: "photos/broken.png")
        let data = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")

        let template = try PassTemplate(folder: Self.generic)
        let runner = BatchRunner(
            template: template, builder: PassBuilder(identity: try TestTemplates.identity()),
            options: BatchOptions(outputFolder: output.path))
        let result = try await runner.run(try BatchInput(path: data.path))
        #expect(result.issued == 4)
        #expect(result.failed == 3)

        var reader = try CSVReader(path: output.appendingPathComponent("batch-report.csv").path)
        var errors: [String: String] = [:]
        while let record = reader.next() {
            let fields = try record.get().fields
            if fields[2] == "failed" { errors[fields[1]] = fields[6] }
        }
        #expect(errors["P-5"]?.contains("image:thumbnail@2x (photos/missing.png): no such file") == true, "\(errors)")
        #expect(errors["P-6"]?.contains("600×600 px; thumbnail@2x.png should be at most 180×180 px") == true, "\(errors)")
        #expect(errors["P-7"]?.contains("image:thumbnail@2x (photos/broken.png) is not a PNG file") == true, "\(errors)")
        for (_, message) in errors { #expect(message.hasPrefix("row ")) }

        let verifier = PassVerifier(root: try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path))
        for (serial, photo) in [("P-1", zoe), ("P-2", shared), ("P-3", shared)] {
            let path = output.appendingPathComponent("\(serial).pkpass").path
            let report = verifier.verify(try FileIO.read(path, what: "pass"), source: path)
            #expect(report.isValid, "\(serial): \(report)")
            let entries = try Self.entries(path)
            #expect(entries["thumbnail@2x.png"] == photo, "\(serial)")
            // The template's other scales of the slot are gone, so no device shows the template's picture.
            #expect(entries["thumbnail.png"] == nil && entries["thumbnail@3x.png"] == nil, "\(serial)")
            let manifest = try JSONParser.value(entries["manifest.json"]!)
            #expect(manifest["thumbnail@2x.png"]?.stringValue == Digest.sha1Hex(photo))
            #expect(manifest["thumbnail.png"] == nil)
            #expect(entries["logo@2x.png"] != nil)
        }
        let untouched = try Self.entries(output.appendingPathComponent("P-4.pkpass").path)
        let templateThumbnail = try FileIO.read(Self.generic + "/thumbnail@2x.png", what: "image")
        #expect(untouched["thumbnail@2x.png"] == templateThumbnail)
        #expect(untouched["thumbnail@3x.png"] != nil)
    }

    @Test func imagesAreCheckedLikeTemplateImages() throws {
        #expect(throws: PassmintError.self) { try PassImages([("avatar@2x", TestPNG.make(width: 10, height: 10), "images.avatar@2x")]) }
        do {
            _ = try PassImages([("photo", TestPNG.make(width: 10, height: 10), "images.photo")])
            Issue.record("an unknown slot was accepted")
        } catch {
            #expect(error.message.contains("images.photo: photo is not an image Wallet shows"))
            #expect(error.message.contains("thumbnail"))
        }
        let mismatched = try PassImages([
            ("thumbnail", TestPNG.make(width: 90, height: 90), "images.thumbnail"),
            ("thumbnail@2x", TestPNG.make(width: 100, height: 100), "images.thumbnail@2x"),
        ])
        do {
            try mismatched.check(style: "generic")
            Issue.record("mismatched scales were accepted")
        } catch {
            #expect(error.message.contains("images.thumbnail@2x is 100×100 px, not 2× images.thumbnail (90×90): make it 180×180 px"))
        }
        let strip = try PassImages([("strip@2x", TestPNG.make(width: 750, height: 196), "images.strip@2x")])
        try strip.check(style: "eventTicket")
        #expect(throws: PassmintError.self) { try strip.check(style: "storeCard") }  // a store card's strip is 750×288 at @2x
        let template = [
            try PassFile(path: "thumbnail.png", bytes: TestPNG.make(width: 90, height: 90)),
            try PassFile(path: "fr.lproj/thumbnail@2x.png", bytes: TestPNG.make(width: 180, height: 180)),
            try PassFile(path: "logo.png", bytes: TestPNG.make(width: 100, height: 40)),
        ]
        let photo = try PassImages([("thumbnail@2x", TestPNG.make(width: 120, height: 120), "photo")])
        #expect(photo.applied(to: template).map(\.path) == ["logo.png", "thumbnail@2x.png"])
    }
}
