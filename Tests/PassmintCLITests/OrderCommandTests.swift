import Foundation
import Passmint
import PassmintTestSupport
import Testing

/// `passmint create` of Wallet orders, run as the built binary.
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
}
