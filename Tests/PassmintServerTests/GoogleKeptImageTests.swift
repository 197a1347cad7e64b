import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Passmint
import PassmintGoogle
import PassmintStore
import PassmintTestSupport
import Testing

@testable import PassmintServer

/// A publish that keeps some passes at an older version of their template leaves their Google class and object naming
/// that version's images at template addresses: those keep answering the old bytes while the new version's answer
/// the new ones.
@Suite struct GoogleKeptImageTests {
    static let type = ServiceHarness.passType

    /// The Loyalty class's logo address as the stand-in holds it.
    static func classLogo(_ harness: GoogleServeHarness) throws -> String {
        let loyaltyClass = try #require(harness.standIn.stored("loyaltyClass", id: "\(GoogleServeHarness.issuerID).Loyalty"))
        return try #require(loyaltyClass["programLogo"]?["sourceUri"]?["uri"]?.stringValue, "\(loyaltyClass)")
    }

    @Test func aPassKeptAtAnOlderVersionKeepsItsImagesAnsweringBesideTheNewVersion() async throws {
        let templates = try PublishCheckTests().templatesFolder()
        let harness = try await GoogleServeHarness.make()
        defer { try? FileManager.default.removeItem(at: templates) }
        do {
            try await withStore(.sqlite, clock: harness.clock) { store in
                try await harness.withCore(on: store, templatesFolder: templates.path) { core in
                    try await buildApplication(core: core, logger: .init(label: "google")).serviceTest(.router) { client in
                        try await Self.keepAndPublish(harness, core, client, templates)
                    }
                }
            }
            await harness.shutdown()
        } catch {
            await harness.shutdown()
            throw error
        }
    }

    static func keepAndPublish(
        _ harness: GoogleServeHarness, _ core: ServiceCore, _ client: some ServiceClient, _ templates: URL
    ) async throws {
        // Two passes with Google objects; only one has the value the new version needs.
        let misfit = try await UpdateJobTests().issue(client)
        let fits = try await UpdateJobTests().issue(client)
        _ = try await core.updates.update(passTypeIdentifier: type, serialNumber: fits.serial, data: ["lounge": "Gold lounge"], voided: nil)
        try await #require(core.googleUpdates).drain()
        let oldLogo = try classLogo(harness)
        let oldBytes = try FileIO.read(templates.appendingPathComponent("Loyalty.pass/logo@3x.png").path, what: "logo")
        #expect(oldLogo.hasPrefix(GoogleServeHarness.imagePrefix + "templates/Loyalty/"), "\(oldLogo)")

        // The new version changes the logo and needs `lounge`: the misfit stays at the old version.
        // A red logo of the old one's size (its IHDR's width and height).
        func dimension(_ at: Int) -> Int { oldBytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let newBytes = TestPNG.make(width: dimension(16), height: dimension(20), rgba: (0xC0, 0x20, 0x20, 0xFF))
        try Data(newBytes).write(to: templates.appendingPathComponent("Loyalty.pass/logo@3x.png"))
        try PublishCheckTests().write(templates) { $0.replacingOccurrences(of: "{{tier}}", with: "{{tier}} {{lounge}}") }
        let job = try await PublishCheckTests().publish(client, "Loyalty")
        #expect(job["state"] == "finished" && job["changed"] == 1 && job["kept"] == 1, "\(job)")
        try await #require(core.googleUpdates).drain()

        // The class as the fitting pass sent it names the new logo, which answers the new bytes.
        let newLogo = try classLogo(harness)
        #expect(newLogo != oldLogo && newLogo.hasPrefix(GoogleServeHarness.imagePrefix + "templates/Loyalty/"), "\(newLogo)")
        let fetchedNew = try await GoogleImageTests.fetch(client, newLogo)
        #expect(fetchedNew.status == .ok && fetchedNew.bytes == newBytes)

        // The kept pass maps to the old version's logo at its template address, which still answers the old bytes.
        let kept = try #require(try await core.store.pass(passTypeIdentifier: type, serialNumber: misfit.serial))
        let mapped = try await #require(core.google).map(kept)
        #expect(mapped.classBody["programLogo"]?["sourceUri"]?["uri"]?.stringValue == oldLogo, "\(mapped.classBody)")
        let fetchedOld = try await GoogleImageTests.fetch(client, oldLogo)
        #expect(fetchedOld.status == .ok && fetchedOld.bytes == oldBytes, "\(fetchedOld.status)")

        // A change of the kept pass patches its object, never the class every version shares back to the old logo.
        _ = try await core.updates.update(passTypeIdentifier: type, serialNumber: misfit.serial, data: ["points": 4321], voided: nil)
        try await #require(core.googleUpdates).drain()
        let object = try #require(harness.standIn.stored("loyaltyObject", id: mapped.objectID))
        #expect("\(object)".contains("4321"), "the kept pass's object was patched: \(object)")
        #expect(try classLogo(harness) == newLogo, "the class keeps the new version's logo")
    }
}
