import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint lint` and `create` of orders as others write them: Apple's shapes accepted, hostile archives refused.
@Suite(.offPool) struct OrderLintCommandTests {
    func passmint(_ arguments: [String]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
    }

    @Test func anAppleStyleBakeryOrderLintsAndIsCreatedWithoutErrors() throws {
        let folder = "Tests/Fixtures/apple-style-orders/Bakery.order"
        let lint = try passmint(["lint", folder])
        #expect(lint.status == 0 && lint.stdout.contains("0 error(s)"), "\(lint.stdout)\(lint.stderr)")
        let chain = try TestEnvironment.devChain(uid: "order.com.example.bakery")
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("bakery.order")
        let create = try passmint(["create", folder, "--certificates", chain.path, "--output", output.path])
        #expect(create.status == 0, "\(create.stderr)")
        let verify = try passmint(["verify", output.path, "--ca", chain.appendingPathComponent("root.pem").path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let lintBuilt = try passmint(["lint", output.path])
        #expect(lintBuilt.status == 0 && lintBuilt.stdout.contains("0 error(s)"), "\(lintBuilt.stdout)")
    }

    @Test func aNumberADoubleCannotHoldIsRefusedByLintAndCreate() throws {
        let folder = TestEnvironment.temporaryFolder().appendingPathComponent("Huge.order")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = try String(
            contentsOfFile: TestEnvironment.repositoryRoot.appendingPathComponent(
                "Tests/Fixtures/apple-style-orders/Shipping.order/order.json"
            )
            .path, encoding: .utf8)
        try source.replacingOccurrences(of: "\"amount\": 129.9", with: "\"amount\": 1e99999999").write(
            to: folder.appendingPathComponent("order.json"), atomically: true, encoding: .utf8)
        let lint = try passmint(["lint", folder.path])
        #expect(lint.status == 1 && lint.stdout.contains("[number-out-of-range] order.json payment.total.amount"), "\(lint.stdout)")
        let chain = try TestEnvironment.devChain(uid: "order.com.example.outfitters")
        let output = folder.deletingLastPathComponent().appendingPathComponent("huge.order")
        let create = try passmint(["create", folder.path, "--certificates", chain.path, "--output", output.path])
        #expect(create.status != 0 && create.stderr.contains("number-out-of-range"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// A good order's archive with `name` added (marked a symbolic link when `link`).
    func hostileOrder(_ name: String, link: Bool = false) throws -> URL {
        let chain = try TestEnvironment.orderChain()
        let good = TestEnvironment.temporaryFolder().appendingPathComponent("good.order")
        let created = try passmint([
            "create", "OrderTemplates/StorePickup.order", "--data", "OrderTemplates/StorePickup.json", "--certificates", chain.path,
            "--output", good.path,
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let entries = try ZipArchive.read([UInt8](try Data(contentsOf: good)), source: "good.order")
        var archive = try ZipArchive.make(entries + [.init(name: name, bytes: Array("/etc/passwd".utf8), compressed: false)])
        if link { archive = ZipRewriter.markingSymbolicLink(name, in: archive) }
        let output = good.deletingLastPathComponent().appendingPathComponent("hostile.order")
        try Data(archive).write(to: output)
        return output
    }

    @Test func lintOfAnOrderArchiveRunsTheArchiveChecksVerifyRuns() throws {
        for (name, link) in [("../evil.png", false), ("/evil.png", false), ("..\\evil.png", false), ("evil.png", true), ("extra/", false)] {
            let order = try hostileOrder(name, link: link)
            let lint = try passmint(["lint", order.path])
            #expect(lint.status == 1, "\(name): \(lint.stdout)\(lint.stderr)")
            #expect(lint.stdout.contains("[order-entry]") && lint.stdout.contains(name), "\(name): \(lint.stdout)")
            #expect(!lint.stdout.contains(" 0 error(s)"), "\(name): \(lint.stdout)")
            let verify = try passmint(["verify", order.path])
            #expect(verify.status == 1, "\(name): \(verify.stdout)")
        }
        let localized = try passmint(["lint", try hostileOrder("de.lproj/").path])
        #expect(localized.status == 0 && !localized.stdout.contains("[order-entry]"), "a .lproj folder is Wallet's: \(localized.stdout)")
    }

    @Test func lintOfAnOrderWithANULInAnEntryNameFails() throws {
        let order = try hostileOrder("evil.png")
        let bytes = ZipRewriter.renaming("evil.png", to: "evil\u{0}png", in: [UInt8](try Data(contentsOf: order)))
        try Data(bytes).write(to: order)
        let lint = try passmint(["lint", order.path])
        #expect(lint.status != 0)
        #expect((lint.stdout + lint.stderr).contains("evil\\0png"), "\(lint.stdout)\(lint.stderr)")
        #expect(!lint.stdout.contains(" 0 error(s)"), "\(lint.stdout)")
    }
}
