import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `lint`, `create` and `batch` of template folders shaped by an attacker (issue 40, item 1): before the fix `create`
/// shipped a linked key inside the pass, `lint` only warned about it, and a FIFO made both wait for ever.
@Suite(.offPool) struct HostileTemplateTests {
    let inspection = InspectionCommandTests()

    /// A copy of the repository's Loyalty.pass, changed by `change`.
    func loyalty(_ change: (URL) throws -> Void) throws -> URL {
        let template = try CreateCommandTests.copyTemplate("Loyalty", to: TestEnvironment.temporaryFolder())
        try change(template)
        return template
    }

    /// `create` of `template`: it must fail, name `file` and what is wrong, and write nothing.
    func expectCreateRefuses(_ template: URL, naming file: String, saying words: String) throws {
        let chain = try TestEnvironment.devChain()
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("x.pkpass")
        let result = try inspection.passmint([
            "create", template.path, "--data", "PassTemplates/Loyalty.json", "--certificates", chain.path, "--output", output.path,
        ])
        #expect(result.status != 0, "\(result.stdout)")
        #expect(result.stderr.contains(template.path + "/" + file) && result.stderr.contains(words), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func createAndLintRefuseALinkToAKeyAndShipNothing() throws {
        let template = try loyalty { try HostileTemplates.link("notes.txt", in: $0, to: try HostileTemplates.secretOutside().path) }
        try expectCreateRefuses(template, naming: "notes.txt", saying: "symbolic link")
        let lint = try inspection.passmint(["lint", template.path])
        #expect(lint.status != 0)
        #expect(lint.stderr.contains("notes.txt is a symbolic link"), "\(lint.stdout) \(lint.stderr)")
        #expect(!(lint.stdout + lint.stderr).contains(HostileTemplates.secretMarker))
    }

    @Test func createRefusesLinksToTheEnvironmentAFolderAndDevZero() throws {
        try expectCreateRefuses(
            try loyalty { try HostileTemplates.link("env.txt", in: $0, to: "/proc/self/environ") }, naming: "env.txt",
            saying: "symbolic link")
        try expectCreateRefuses(
            try loyalty { try HostileTemplates.link("fr.lproj", in: $0, to: try HostileTemplates.folderOutside().path) },
            naming: "fr.lproj", saying: "symbolic link")
        try expectCreateRefuses(
            try loyalty {
                try FileManager.default.removeItem(at: $0.appendingPathComponent("icon.png"))
                try HostileTemplates.link("icon.png", in: $0, to: "/dev/zero")
            }, naming: "icon.png", saying: "symbolic link")
    }

    @Test func createAndLintRefuseAFIFOWithoutWaitingForIt() throws {
        let template = try loyalty {
            try FileManager.default.removeItem(at: $0.appendingPathComponent("logo.png"))
            try HostileTemplates.fifo("logo.png", in: $0)
        }
        try expectCreateRefuses(template, naming: "logo.png", saying: "not a regular file")
        let lint = try inspection.passmint(["lint", template.path])
        #expect(lint.status != 0)
        #expect(lint.stderr.contains("logo.png is not a regular file"), "\(lint.stdout) \(lint.stderr)")
    }

    @Test func aFileWalletDoesNotReadIsALintErrorAndCreateRefusesIt() throws {
        let template = try loyalty { try Data("internal notes".utf8).write(to: $0.appendingPathComponent("notes.txt")) }
        let lint = try inspection.passmint(["lint", template.path, "--json"])
        #expect(lint.status == 1, "\(lint.stdout)")
        let diagnostics = try JSONParser.value(Array(lint.stdout.utf8))["diagnostics"]?.arrayValue ?? []
        #expect(
            diagnostics.contains { $0["code"]?.stringValue == "file-unknown" && $0["severity"]?.stringValue == "error" },
            "\(lint.stdout)")
        try expectCreateRefuses(template, naming: "notes.txt", saying: "not a file Wallet reads in a pass")
    }

    @Test func batchRefusesALinkedTemplateFile() throws {
        let chain = try TestEnvironment.devChain()
        let template = try loyalty { try HostileTemplates.link("notes.txt", in: $0, to: try HostileTemplates.secretOutside().path) }
        let scratch = TestEnvironment.temporaryFolder()
        let data = scratch.appendingPathComponent("rows.csv")
        try Data("serialNumber,memberName\nS-1,Zoë\n".utf8).write(to: data)
        let result = try inspection.passmint([
            "batch", template.path, "--data", data.path, "--out-dir", scratch.appendingPathComponent("out").path,
            "--certificates", chain.path,
        ])
        #expect(result.status != 0, "\(result.stdout)")
        #expect(result.stderr.contains("notes.txt is a symbolic link"), "\(result.stderr)")
    }

    @Test func orderCreateAndLintRefuseALinkToAKey() throws {
        let template = TestEnvironment.temporaryFolder().appendingPathComponent("StorePickup.order")
        try FileManager.default.copyItem(
            at: TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates/StorePickup.order"), to: template)
        try HostileTemplates.link("notes.txt", in: template, to: try HostileTemplates.secretOutside().path)
        let lint = try inspection.passmint(["lint", template.path])
        #expect(lint.status != 0)
        #expect(lint.stderr.contains("notes.txt is a symbolic link"), "\(lint.stdout) \(lint.stderr)")
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("x.order")
        let chain = try TestEnvironment.orderChain()
        let create = try inspection.passmint([
            "create", template.path, "--data", "OrderTemplates/StorePickup.json", "--certificates", chain.path, "--output",
            output.path,
        ])
        #expect(create.status != 0)
        #expect(create.stderr.contains("notes.txt is a symbolic link"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
