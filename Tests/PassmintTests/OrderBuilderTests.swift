import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct OrderBuilderTests {
    static func orderIdentity(uid: String = TestEnvironment.devOrderType) throws -> SigningIdentity {
        try TestTemplates.identity(uid: uid)
    }

    static func templates() throws -> [(OrderTemplate, JSONObject)] {
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".order") }.sorted()
        return try names.map { name in
            let data = try Data(contentsOf: root.appendingPathComponent(name.replacingOccurrences(of: ".order", with: ".json")))
            return (try OrderTemplate(folder: root.appendingPathComponent(name).path), try JSONParser.value(Array(data)).objectValue!)
        }
    }

    @Test func everyOrderTemplateBuildsAnOrderThatIndependentToolsAccept() throws {
        let builder = OrderBuilder(identity: try Self.orderIdentity())
        let templates = try Self.templates()
        #expect(templates.count >= 2)
        let root = try TestEnvironment.orderChain().appendingPathComponent("root.pem")
        for (template, data) in templates {
            let order = try builder.build(template: template, data: data)
            #expect(order.warnings.isEmpty, "\(template.folder): \(order.warnings)")
            let file = TestEnvironment.temporaryFolder().appendingPathComponent("\(order.orderIdentifier).order")
            try FileIO.writeAtomically(order.archive, to: file.path)
            let check = try TestEnvironment.independentlyCheckOrder(file, root: root)
            #expect(check.status == 0, "\(template.folder): \(check.stderr)")

            // Read back by libzip: the template's files, then order.json, manifest.json and signature.
            let entries = try ZipArchive.read(order.archive, source: file.lastPathComponent)
            #expect(entries.map(\.name) == template.files.map(\.path) + ["order.json", "manifest.json", "signature"])
            #expect(entries.first { $0.name == "order.json" }?.bytes == order.orderJSON)
            let manifest = try JSONParser.value(order.manifest).objectValue!
            #expect(manifest["order.json"]?.stringValue == Digest.sha256Hex(order.orderJSON))
            let json = try Order(data: order.orderJSON)
            #expect(json.orderTypeIdentifier == TestEnvironment.devOrderType, "taken from the certificate's UID")
        }
    }

    @Test func stringsJSONBecomesOrderStringsInEachLanguage() throws {
        let shipment = try #require(try Self.templates().first { $0.0.folder.hasSuffix("Shipment.order") }).0
        let strings = try #require(shipment.files.first { $0.path == "de.lproj/order.strings" })
        #expect(StringsFile.isUTF16LittleEndianWithBOM(strings.bytes))
        #expect(try StringsFile.parse(strings.bytes).contains(.init(key: "ITEM_CASE", value: "Reiseetui")))
        #expect(!shipment.files.contains { $0.path == "strings.json" })
    }

    @Test func aPassTypeCertificateCannotSignAnOrder() throws {
        let (template, data) = try Self.templates()[0]
        var json = try template.render(data: data)
        json["orderTypeIdentifier"] = "order.dev.passmint.example"
        let builder = OrderBuilder(identity: try TestTemplates.identity())
        do {
            _ = try builder.build(orderJSON: json, files: template.files, source: "pass-signed/order.json")
            Issue.record("a Pass Type ID certificate signed an order")
        } catch {
            #expect(error.code == .identityMismatch)
            #expect(error.message.contains("pass.dev.passmint.example") && error.message.contains("Order Type ID"), "\(error.message)")
        }
    }

    @Test func anOrderOfAnotherTypeIsRefusedNamingBoth() throws {
        let (template, data) = try Self.templates()[0]
        var json = try template.render(data: data)
        json["orderTypeIdentifier"] = "order.com.example.other"
        let builder = OrderBuilder(identity: try Self.orderIdentity())
        do {
            _ = try builder.build(orderJSON: json, files: template.files, source: "other/order.json")
            Issue.record("signed an order of another type")
        } catch {
            #expect(error.code == .identityMismatch)
            #expect(error.message.contains("order.com.example.other") && error.message.contains(TestEnvironment.devOrderType))
        }
    }

    @Test func anInvalidOrderIsNotSignedAndEveryErrorIsListed() throws {
        let (template, data) = try Self.templates()[0]
        var bad = data
        bad["status"] = "shipped"
        bad["updatedAt"] = "2026-11-22 08:30"
        let builder = OrderBuilder(identity: try Self.orderIdentity())
        do {
            _ = try builder.build(template: template, data: bad)
            Issue.record("an invalid order was signed")
        } catch {
            #expect(error.code == .invalidOrder)
            #expect(error.message.contains("status: status \"shipped\"") && error.message.contains("updatedAt:"), "\(error.message)")
        }
    }

    @Test func anOrderBuiltFromTheModelSignsItsOwnFiles() throws {
        let order = try Order(data: Array(OrderModelTests.orderJSON.utf8))
        let item = try PassFile(path: "item@3x.png", bytes: TestTemplates.png(width: 120, height: 120))
        let built = try OrderBuilder(identity: try Self.orderIdentity()).build(order: order, files: [item])
        let manifest = try JSONParser.value(built.manifest).objectValue!
        #expect(manifest.keys == ["item@3x.png", "order.json"])
        #expect(manifest["item@3x.png"]?.stringValue == Digest.sha256Hex(item.bytes))
        #expect(BuiltOrder.mimeType == "application/vnd.apple.finance.order")
    }
}
