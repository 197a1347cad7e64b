import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint preview` on the command line: a template with data, a `.pkpass`, `--png` through Chromium (and what it
/// says without Chromium), and its errors.
@Suite(.offPool) struct PreviewCommandTests {
    static let templates = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")

    @Test(.enabled(if: TestEnvironment.runsChromiumTests)) func aTemplateWithDataAndSetBecomesAPageAndAPNG() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-cli").path
        let result = try await PreviewBrowserTests.preview([
            Self.templates.appendingPathComponent("Loyalty.pass").path, "--data",
            Self.templates.appendingPathComponent("Loyalty.json").path,
            "--set", "memberName=Ada Lovelace", "--side", "front", "--output", folder + "/card.html", "--png", folder + "/card.png",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("card.html: preview of"))
        let page = String(decoding: try FileIO.read(folder + "/card.html", what: ""), as: UTF8.self)
        #expect(page.contains("Ada Lovelace"))
        #expect(!page.contains("id=\"back\""))
        let png = try FileIO.read(folder + "/card.png", what: "")
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let info = try PNGInfo(bytes: png, file: "card.png")
        #expect(info.width >= 1000, "2 device pixels a CSS pixel")
        // The PNG's barcode scans too.
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Browser/decode_barcodes.py").path
        let decoded = try await onOwnThread { try TestEnvironment.run("/usr/bin/env", ["python3", script, folder + "/card.png"]) }
        let data = try JSONParser.value(try FileIO.read(Self.templates.appendingPathComponent("Loyalty.json").path, what: ""))
        let serial = try #require(data["serialNumber"]?.stringValue)
        #expect(decoded.stdout.contains(serial), "\(decoded.stdout) \(decoded.stderr)")
    }

    @Test func withoutChromiumPNGSaysHowToInstallIt() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-nochromium").path
        let result = try await PreviewBrowserTests.preview(
            [
                Self.templates.appendingPathComponent("Coupon.pass").path, "--data",
                Self.templates.appendingPathComponent("Coupon.json").path,
                "--output", folder + "/card.html", "--png", folder + "/card.png",
            ], environment: ["PATH": folder, "PASSMINT_CHROMIUM": ""])
        #expect(result.status != 0)
        #expect(result.stderr.contains("apt-get install chromium"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/card.html"), "the page is written before the PNG is tried")
    }

    @Test func aSignedPassPreviewsToo() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-pkpass").path
        let chain = try TestEnvironment.devChain()
        let pass = folder + "/card.pkpass"
        let created = try await onOwnThread {
            try TestEnvironment.run(
                CreateCommandTests.binary,
                [
                    "create", Self.templates.appendingPathComponent("StoreCard.pass").path, "--data",
                    Self.templates.appendingPathComponent("StoreCard.json").path, "--certificates", chain.path, "--output", pass,
                ])
        }
        try #require(created.status == 0, "\(created.stderr)")
        let result = try await PreviewBrowserTests.preview([pass, "--output", folder + "/card.html"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = String(decoding: try FileIO.read(folder + "/card.html", what: ""), as: UTF8.self)
        #expect(page.contains("style-storeCard"))
        #expect(page.contains("data:image/png;base64,"))
    }

    @Test(.enabled(if: TestEnvironment.runsChromiumTests)) func aGalleryGetsAScreenshotOfItsIndexAndRefusesData() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-gallery").path
        let result = try await PreviewBrowserTests.preview([
            Self.templates.path, "--output", folder + "/site", "--png", folder + "/index.png",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("template(s) previewed"))
        #expect(try FileIO.read(folder + "/index.png", what: "").starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let index = String(decoding: try FileIO.read(folder + "/site/index.html", what: ""), as: UTF8.self)
        #expect(index.contains("href=\"Loyalty.html\""))
        #expect(FileManager.default.fileExists(atPath: folder + "/site/Loyalty.html"))
        let refused = try await PreviewBrowserTests.preview([Self.templates.path, "--set", "x=1", "--output", folder + "/other"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Name.json"))
    }

    @Test func badArgumentsSayWhatToDo() async throws {
        let missing = try await PreviewBrowserTests.preview(["/nonexistent/Card.pass", "--output", "/tmp/x.html"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("does not exist"))
        let side = try await PreviewBrowserTests.preview([
            Self.templates.appendingPathComponent("Coupon.pass").path, "--side", "top", "--output", "/tmp/x.html",
        ])
        #expect(side.status != 0)
        #expect(side.stderr.contains("side"))
    }
}
