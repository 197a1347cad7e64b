import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint preview --png` of an order: the order page screenshot by headless Chromium, as for passes, with the
/// pickup code readable in the picture.
@Suite(.offPool, .enabled(if: TestEnvironment.runsChromiumTests)) struct OrderPreviewPNGTests {
    static let templates = TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates")

    @Test func aPickupOrderBecomesAPNGWhosePickupCodeScans() async throws {
        let folder = TestEnvironment.temporaryFolder("order-png").path
        let result = try await PreviewBrowserTests.preview([
            Self.templates.appendingPathComponent("StorePickup.order").path, "--data",
            Self.templates.appendingPathComponent("StorePickup.json").path, "--output", folder + "/pickup.html", "--png",
            folder + "/pickup.png",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("pickup.png: screenshot by headless Chromium"), "\(result.stdout)")
        let png = try FileIO.read(folder + "/pickup.png", what: "")
        let info = try PNGInfo(bytes: png, file: "pickup.png")
        #expect(info.width == 936, "the 468-pixel window at 2 device pixels a CSS pixel")
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Browser/decode_barcodes.py").path
        let decoded = try await onOwnThread { try TestEnvironment.run("/usr/bin/env", ["python3", script, folder + "/pickup.png"]) }
        let data = try JSONParser.value(try FileIO.read(Self.templates.appendingPathComponent("StorePickup.json").path, what: ""))
        let code = try #require(data["pickupCode"]?.stringValue)
        #expect(decoded.stdout.contains(code), "\(decoded.stdout) \(decoded.stderr)")
    }

    @Test func aShipmentOrderPackageBecomesAPNGTallEnoughForItsItems() async throws {
        let folder = TestEnvironment.temporaryFolder("order-png-shipment").path
        let chain = try TestEnvironment.orderChain()
        let create = try await onOwnThread {
            try TestEnvironment.run(
                CreateCommandTests.binary,
                [
                    "create", Self.templates.appendingPathComponent("Shipment.order").path, "--data",
                    Self.templates.appendingPathComponent("Shipment.json").path, "--certificates", chain.path, "--output",
                    folder + "/shipment.order",
                ])
        }
        #expect(create.status == 0, "\(create.stderr)")
        let result = try await PreviewBrowserTests.preview([
            folder + "/shipment.order", "--output", folder + "/shipment.html", "--png", folder + "/shipment.png", "--scale", "1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try PNGInfo(bytes: try FileIO.read(folder + "/shipment.png", what: ""), file: "shipment.png")
        #expect(info.width == 468 && info.height > 800, "\(info.width)×\(info.height)")
    }
}
