import Foundation
import Passmint
import PassmintTestSupport
import Testing

@testable import PassmintGoogle

/// Every sample template maps to a class and object Google's schema accepts, and what does not carry over is
/// reported.
@Suite struct GoogleMappingTests {
    @Test(arguments: SampleTemplates.names)
    func everyTemplateMapsToAClassAndObjectTheStandInAccepts(_ name: String) async throws {
        let mapped = try SampleTemplates.mapped(name)
        try await GoogleHarness.with { harness async throws in
            #expect(try await harness.client.upsertClass(mapped.classBody, style: mapped.style) == .inserted)
            #expect(try await harness.client.upsertObject(mapped.objectBody, style: mapped.style) == .inserted)
            #expect(try await harness.client.upsertObject(mapped.objectBody, style: mapped.style) == .unchanged)
            #expect(harness.standIn.stored(mapped.style.objectCollection, id: mapped.objectID) != nil)
        }
    }

    @Test(arguments: SampleTemplates.names)
    func everyTopLevelKeyIsCarriedOrReported(_ name: String) throws {
        let (pass, _) = try SampleTemplates.rendered(name)
        let mapped = try SampleTemplates.mapped(name)
        let carried: Set<String> = [
            "formatVersion", "serialNumber", "organizationName", "logoText", "backgroundColor", "barcodes", "locations", "relevantDate",
            "relevantDates", "expirationDate", "groupingIdentifier", "sharingProhibited", "storeCard", "eventTicket", "boardingPass",
            "coupon", "generic",
        ]
        for key in pass.keys where !carried.contains(key) {
            #expect(
                mapped.findings.contains { $0.path == key || $0.path.hasPrefix(key + ".") },
                "\(name): \(key) is neither carried nor reported")
        }
        #expect(mapped.findings.allSatisfy { $0.severity == .warning && $0.code == "google-not-carried" })
    }

    @Test func theStyleFollowsThePass() throws {
        #expect(try SampleTemplates.mapped("Loyalty").style == .loyalty)
        #expect(try SampleTemplates.mapped("StoreCard").style == .giftCard, "a balance with a currency code")
        #expect(try SampleTemplates.mapped("Rewards").style == .loyalty)
        var options = SampleTemplates.options
        options.storeCardIsGiftCard = true
        #expect(try SampleTemplates.mapped("Loyalty", options: options).style == .giftCard, "the template says so")
        #expect(try SampleTemplates.mapped("EventTicket").style == .eventTicket)
        #expect(try SampleTemplates.mapped("BoardingPass").style == .flight)
        #expect(try SampleTemplates.mapped("Coupon").style == .offer)
        #expect(try SampleTemplates.mapped("Generic").style == .generic)
        #expect(WalletColor("rgb(58, 34, 24)")?.hex == "#3a2218")
        #expect(WalletColor("rgb(300, 0, 0)")?.hex == nil)
    }

    @Test func withoutAnImageBaseURLImagesAreReportedNotSent() throws {
        var options = SampleTemplates.options
        options.imageBaseURL = nil
        let mapped = try SampleTemplates.mapped("Loyalty", options: options)
        #expect(mapped.classBody["programLogo"] == nil && mapped.classBody["heroImage"] == nil)
        #expect(mapped.findings.contains { $0.path == "logo" && $0.fix.contains("--image-base-url") })
    }
}
