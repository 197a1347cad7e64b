import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct OrderVerifierTests {
    static let item = try! PassFile(path: "item@3x.png", bytes: TestTemplates.png(width: 120, height: 120))

    /// A good order, built by ``OrderBuilder``.
    static func built() throws -> BuiltOrder {
        try OrderBuilder(identity: try OrderBuilderTests.orderIdentity()).build(
            order: try Order(data: Array(OrderModelTests.orderJSON.utf8)), files: [item])
    }

    /// An archive put together by hand, for what ``OrderBuilder`` refuses to make.
    static func assemble(
        orderJSON: [UInt8], manifestJSON: [UInt8]? = nil, identity: SigningIdentity? = nil, files: [PassFile] = [item]
    ) throws -> [UInt8] {
        let manifest = manifestJSON ?? OrderBuilder.manifest(orderJSON: orderJSON, files: files)
        let signature = try (identity ?? OrderBuilderTests.orderIdentity()).signDetached(manifest)
        return try OrderBuilder.archive(files: files, orderJSON: orderJSON, manifest: manifest, signature: signature)
    }

    static func verifier() throws -> OrderVerifier {
        OrderVerifier(
            root: try Certificate(contentsOf: TestEnvironment.orderChain().appendingPathComponent("root.pem").path), team: "DEVTEAM123")
    }

    @Test func aBuiltOrderPassesEveryCheck() throws {
        let report = try Self.verifier().verify(try Self.built().archive, source: "good.order")
        #expect(report.isValid, "\(report.checks.filter { $0.status == .failed })")
        for name in [
            "zip", "order-json", "manifest", "manifest-algorithm", "manifest-hashes", "signature-valid", "signer-identity", "chain",
        ] {
            #expect(report.check(name)?.status == .passed, "\(name): \(report.check(name)?.detail ?? "missing")")
        }
    }

    @Test func aSHA1ManifestIsRejected() throws {
        let order = try Self.built()
        var manifest = JSONObject()
        manifest["item@3x.png"] = .string(Digest.sha1Hex(Self.item.bytes))
        manifest["order.json"] = .string(Digest.sha1Hex(order.orderJSON))
        let archive = try Self.assemble(orderJSON: order.orderJSON, manifestJSON: JSONWriter.data(.object(manifest)))
        let report = try Self.verifier().verify(archive, source: "sha1.order")
        #expect(!report.isValid)
        #expect(report.check("manifest-algorithm")?.status == .failed)
        #expect(report.check("manifest-algorithm")?.detail.contains("SHA-1") == true)
        #expect(report.check("signature-valid")?.status == .passed, "the signature itself is good: only the algorithm is wrong")
    }

    @Test func aPassTypeCertificateIsRejected() throws {
        let order = try Self.built()
        let archive = try Self.assemble(orderJSON: order.orderJSON, identity: try TestTemplates.identity())
        let report = OrderVerifier(team: "DEVTEAM123").verify(archive, source: "pass-signed.order")
        #expect(!report.isValid)
        #expect(report.check("signer-identity")?.status == .failed)
        #expect(report.check("signer-identity")?.detail.contains("Pass Type ID certificate cannot sign orders") == true)
    }

    @Test func anotherTeamIsRejected() throws {
        let report = OrderVerifier(team: "OTHERTEAM1").verify(try Self.built().archive, source: "team.order")
        #expect(report.check("signer-identity")?.status == .failed)
        #expect(report.check("signer-identity")?.detail.contains("OTHERTEAM1") == true)
    }

    @Test func aMissingUpdatedAtIsRejected() throws {
        var json = try JSONParser.value(Array(OrderModelTests.orderJSON.utf8)).objectValue!
        json["updatedAt"] = nil
        let report = try Self.verifier().verify(try Self.assemble(orderJSON: JSONWriter.data(.object(json))), source: "no-updated.order")
        #expect(!report.isValid)
        #expect(report.check("lint")?.status == .failed)
        #expect(report.lint.contains { $0.code == "order-required-key" && $0.path == "updatedAt" })
    }

    @Test func aTamperedFileIsRejected() throws {
        let order = try Self.built()
        let manifest = OrderBuilder.manifest(orderJSON: order.orderJSON, files: [Self.item])
        let signature = try OrderBuilderTests.orderIdentity().signDetached(manifest)
        var tampered = order.orderJSON
        tampered[tampered.firstIndex(of: UInt8(ascii: "N"))!] = UInt8(ascii: "M")
        let archive = try OrderBuilder.archive(files: [Self.item], orderJSON: tampered, manifest: manifest, signature: signature)
        let report = try Self.verifier().verify(archive, source: "tampered.order")
        #expect(!report.isValid)
        #expect(report.check("manifest-hashes")?.status == .failed)
        #expect(report.check("manifest-hashes")?.detail.contains("order.json") == true)
    }

    @Test func thePreviousVersionAddsTheRulesBetweenVersions() throws {
        var completed = try JSONParser.value(Array(OrderModelTests.orderJSON.utf8)).objectValue!
        completed["status"] = "completed"
        completed["updatedAt"] = "2026-11-21T00:00:00Z"
        let report = try Self.verifier().verify(try Self.built().archive, source: "reopened.order", previous: completed)
        #expect(!report.isValid)
        #expect(report.lint.contains { $0.code == "order-status-transition" })
        #expect(report.lint.contains { $0.code == "order-updated-at" } == false, "2026-11-22 is after 2026-11-21")
    }

    @Test func aPassIsNotAnOrder() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(template: template, data: TestTemplates.data))
        let report = OrderVerifier().verify(pass.archive, source: "card.pkpass")
        #expect(report.check("order-json")?.detail.contains("this is a pass") == true)
        #expect(report.check("manifest-algorithm")?.status == .failed)
    }
}
