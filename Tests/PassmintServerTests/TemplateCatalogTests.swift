import Foundation
import HTTPTypes
import Passmint
import PassmintStore
import PassmintTestSupport
import Testing

@testable import PassmintServer

/// Templates by name, loaded once; the personalized variant after a sign-up.
@Suite struct TemplateCatalogTests {
    @Test func loadsEachTemplateOnceAndExplainsWhatIsMissing() throws {
        let catalog = TemplateCatalog(folder: ServiceHarness.templates)
        #expect(try catalog.template(named: "Loyalty") === catalog.template(named: "Loyalty"))
        #expect(
            try catalog.template(named: "Loyalty.pass") === catalog.template(named: "Loyalty"), "one template, named with or without .pass")
        #expect {
            try catalog.template(named: "Nope")
        } throws: { error in
            // The caller learns which templates there are.
            let failure = error as? ServiceFailure
            return failure?.status == .badRequest && failure?.code == "unknown-template"
                && failure?.message?.hasPrefix("no template named Nope: the templates are BoardingPass, Coupon, ") == true
                && failure?.message?.contains("Loyalty") == true
        }
        for name in ["", "../Loyalty", ".hidden", "a b"] {
            let refused = ServiceFailure.badRequest("template names are letters, digits, '-', '_' and '.'")
            #expect(throws: refused) { try catalog.template(named: name) }
        }
    }

    @Test func aTemplateThatDoesNotLoadIsUnprocessable() throws {
        let folder = TestEnvironment.temporaryFolder("catalog")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Broken.pass"), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("Broken.pass/pass.json"))
        #expect {
            try TemplateCatalog(folder: folder.path).template(named: "Broken")
        } throws: { error in
            let failure = error as? ServiceFailure
            // The API caller learns which file of the template is broken, not where the server keeps it.
            return failure?.status == .unprocessableContent && failure?.message?.hasPrefix("template Broken: ") == true
                && failure?.message?.contains("Broken.pass/pass.json") == true && failure?.message?.contains(folder.path) == false
        }
    }

    @Test func aSignedUpPassUsesThePersonalizedVariant() async throws {
        let catalog = TemplateCatalog(folder: ServiceHarness.templates)
        var pass = StoredPass(
            passTypeIdentifier: ServiceHarness.passType, serialNumber: "R-1", authenticationToken: "token-0123456789abcdef",
            template: "Rewards", dataJSON: "{}")
        let before = try await catalog.template(for: pass)
        #expect(before === (try catalog.template(named: "Rewards")) && before.isPersonalizable)
        pass.personalizationJSON = #"{"fullName":"Zoë"}"#
        let after = try await catalog.template(for: pass)
        #expect(!after.isPersonalizable, "personalization.json is gone once the user signed up")
        #expect(after === (try await catalog.template(for: pass)), "made once")
        pass.template = "Loyalty"
        let loyalty = try await catalog.template(for: pass)
        #expect(try loyalty === catalog.template(named: "Loyalty"), "a template that is not personalizable stays")
    }
}
