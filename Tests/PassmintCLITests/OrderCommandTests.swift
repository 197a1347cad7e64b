import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint create`, `lint` and `verify` of Wallet orders, run as the built binary.
@Suite(.offPool) struct OrderCommandTests {
    static let templates: [String] = {
        let folder = TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".order") }.sorted()
    }()

    func passmint(_ arguments: [String]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
    }

    /// Builds `template` with its sample data into a temporary `.order`.
    func create(_ template: String) throws -> (URL, TestEnvironment.ProcessResult) {
        let chain = try TestEnvironment.orderChain()
        let output = TestEnvironment.temporaryFolder().appendingPathComponent(template.replacingOccurrences(of: ".order", with: ".order"))
        let data = "OrderTemplates/" + template.replacingOccurrences(of: ".order", with: ".json")
        let result = try passmint([
            "create", "OrderTemplates/\(template)", "--data", data, "--certificates", chain.path, "--output", output.path,
        ])
        return (output, result)
    }

    @Test func thereAreOrderTemplatesForAShipmentAndAPickup() {
        #expect(Self.templates.contains("Shipment.order") && Self.templates.contains("StorePickup.order"))
    }

    @Test(arguments: templates)
    func createsAnOrderFromEveryTemplateThatIndependentToolsAccept(_ template: String) throws {
        let (output, result) = try create(template)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("application/vnd.apple.finance.order") && result.stdout.contains(TestEnvironment.devOrderType))
        #expect(result.stderr.isEmpty, "no warnings for a sample template: \(result.stderr)")
        let root = try TestEnvironment.orderChain().appendingPathComponent("root.pem")
        let check = try TestEnvironment.independentlyCheckOrder(output, root: root)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func aPassCertificateIsRefusedAndNothingIsWritten() throws {
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("x.order")
        let result = try passmint([
            "create", "OrderTemplates/Shipment.order", "--data", "OrderTemplates/Shipment.json", "--certificates",
            try TestEnvironment.devChain().path, "--output", output.path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("Order Type ID"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test(arguments: templates)
    func lintAcceptsEveryOrderTemplateAndVerifyEveryOrderBuilt(_ template: String) throws {
        let lint = try passmint(["lint", "OrderTemplates/\(template)"])
        #expect(lint.status == 0 && lint.stdout.contains("0 error(s), 0 warning(s)"), "\(lint.stdout)\(lint.stderr)")
        let (output, created) = try create(template)
        #expect(created.status == 0, "\(created.stderr)")
        let root = try TestEnvironment.orderChain().appendingPathComponent("root.pem")
        let verify = try passmint(["verify", output.path, "--ca", root.path, "--team", "DEVTEAM123"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(
            verify.stdout.contains("ok   manifest-algorithm: SHA-256") && verify.stdout.contains("ok   signer-identity"), "\(verify.stdout)"
        )
        let lintBuilt = try passmint(["lint", output.path])
        #expect(lintBuilt.status == 0, "\(lintBuilt.stdout)")
    }

    @Test func lintNamesThePathTheValueAndTheFix() throws {
        let folder = TestEnvironment.temporaryFolder().appendingPathComponent("order.json")
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        let source = try String(
            contentsOfFile: TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates/StorePickup.order/order.json").path,
            encoding: .utf8)
        try source.replacingOccurrences(of: "{{pickupStatus}}", with: "collected").write(to: folder, atomically: true, encoding: .utf8)
        let result = try passmint(["lint", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("[order-value] order.json fulfillments[0].status: pickup status \"collected\""), "\(result.stdout)")
        #expect(result.stdout.contains("Fix: use one of open, processing, readyForPickup, pickedUp, issue, cancelled"), "\(result.stdout)")
    }

    @Test func verifyWithThePreviousVersionRefusesACompletedOrderOpenAgain() throws {
        let chain = try TestEnvironment.orderChain()
        let scratch = TestEnvironment.temporaryFolder()
        func build(_ name: String, _ settings: [String]) throws -> URL {
            let output = scratch.appendingPathComponent(name)
            let result = try passmint(
                [
                    "create", "OrderTemplates/StorePickup.order", "--data", "OrderTemplates/StorePickup.json", "--certificates", chain.path,
                    "--output", output.path,
                ] + settings.flatMap { ["--set", $0] })
            #expect(result.status == 0, "\(result.stderr)")
            return output
        }
        let done = try build("done.order", ["status=completed", "pickupStatus=pickedUp", "updatedAt=2026-11-26T12:00:00+01:00"])
        let reopened = try build("reopened.order", ["updatedAt=2026-11-26T13:00:00+01:00"])
        let result = try passmint(["verify", reopened.path, "--previous", done.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("[order-status-transition] order.json status: the status goes from completed back to open"),
            "\(result.stdout)")
        #expect(result.stdout.contains("fulfillments[0].status: the status goes from pickedUp back to readyForPickup"), "\(result.stdout)")
        let forward = try passmint(["verify", done.path, "--previous", reopened.path])
        #expect(forward.stdout.contains("order-updated-at"), "12:00 is not later than 13:00: \(forward.stdout)")
    }

    @Test func previewDrawsAnOrderTemplateAndABuiltOrder() throws {
        let page = TestEnvironment.temporaryFolder().appendingPathComponent("order.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try passmint([
            "preview", "OrderTemplates/Shipment.order", "--data", "OrderTemplates/Shipment.json", "--lang", "de", "--output", page.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Studiokopfhörer"))
        let (order, created) = try create("StorePickup.order")
        #expect(created.status == 0)
        let built = try passmint(["preview", order.path, "--output", page.path])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Ready for pickup"))
    }
}
