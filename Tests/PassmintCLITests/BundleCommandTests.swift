import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint bundle`, and the localized and poster templates end to end.
@Suite(.offPool) struct BundleCommandTests {
    func passmint(_ arguments: [String]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
    }

    /// Builds `count` passes of a template (different serial numbers) into `folder`.
    func build(_ template: String, count: Int, into folder: URL) throws -> [URL] {
        try (1...count).map { index in
            let output = folder.appendingPathComponent("\(template)-\(index).pkpass")
            let result = try passmint([
                "create", "PassTemplates/\(template).pass", "--data", "PassTemplates/\(template).json", "--set",
                "serialNumber=\(template)-\(index)",
                "--certificates", TestEnvironment.devChain().path, "--output", output.path,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            return output
        }
    }

    @Test func helpExplainsTheLimits() throws {
        let help = try passmint(["bundle", "--help"])
        #expect(help.status == 0)
        for text in ["--output", "10 passes", "150 MB", "application/vnd.apple.pkpasses"] {
            #expect(help.stdout.contains(text), "\(text) missing")
        }
        #expect(try passmint(["--help"]).stdout.contains("bundle"))
    }

    @Test func bundlesPassesThatEachVerify() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let passes = try build("Festival", count: 2, into: scratch) + build("PosterEventTicket", count: 1, into: scratch)
        let output = scratch.appendingPathComponent("tickets.pkpasses")
        let result = try passmint(["bundle"] + passes.map(\.path) + ["--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 passes"))

        let entries = try ZipArchive.read([UInt8](try Data(contentsOf: output)), source: "tickets.pkpasses")
        #expect(entries.map(\.name) == ["Festival-1.pkpass", "Festival-2.pkpass", "PosterEventTicket-1.pkpass"])
        let root = try TestEnvironment.devChain().appendingPathComponent("root.pem")
        for entry in entries {
            let file = scratch.appendingPathComponent("unpacked-" + entry.name)
            try Data(entry.bytes).write(to: file)
            let verify = try passmint(["verify", file.path, "--ca", root.path])
            #expect(verify.status == 0, "\(entry.name): \(verify.stdout)")
        }
    }

    @Test func verifyAndLintOpenBundles() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let passes = try build("Generic", count: 2, into: scratch)
        let bundle = scratch.appendingPathComponent("tickets.pkpasses")
        #expect(try passmint(["bundle"] + passes.map(\.path) + ["--output", bundle.path]).status == 0)
        let root = try TestEnvironment.devChain().appendingPathComponent("root.pem")
        let verify = try passmint(["verify", bundle.path, "--ca", root.path])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("tickets.pkpasses/Generic-2.pkpass:"))
        #expect(verify.stdout.contains("valid (2 passes)"))
        let lint = try passmint(["lint", bundle.path, "--json"])
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(try JSONParser.value(Array(lint.stdout.utf8))["passes"]?.arrayValue?.count == 2)

        // One pass altered after signing: the bundle is invalid and the report names that pass and check.
        var entries = try ZipArchive.read([UInt8](try Data(contentsOf: passes[1])), source: "pass")
        let index = try #require(entries.firstIndex { $0.name == "pass.json" })
        entries[index].bytes = Array(
            String(decoding: entries[index].bytes, as: UTF8.self).replacingOccurrences(of: "Generic-2", with: "Generic-9").utf8)
        let tampered = scratch.appendingPathComponent("tampered.pkpass")
        try Data(try ZipArchive.make(entries)).write(to: tampered)
        let mixed = scratch.appendingPathComponent("mixed.pkpasses")
        #expect(try passmint(["bundle", passes[0].path, tampered.path, "--output", mixed.path]).status == 0)
        let refused = try passmint(["verify", mixed.path, "--ca", root.path, "--json"])
        #expect(refused.status == 1)
        let report = try JSONParser.value(Array(refused.stdout.utf8))
        #expect(report["valid"] == false)
        #expect(report["passes"]?.arrayValue?.map { $0["valid"] } == [true, false])

        // Eleven passes: not a bundle Wallet opens.
        let eleven = try (0..<11).map {
            ZipArchive.Entry(name: "p\($0).pkpass", bytes: [UInt8](try Data(contentsOf: passes[0])), compressed: false)
        }
        let big = scratch.appendingPathComponent("eleven.pkpasses")
        try Data(try ZipArchive.make(eleven)).write(to: big)
        let tooMany = try passmint(["verify", big.path, "--ca", root.path])
        #expect(tooMany.status == 1)
        #expect(tooMany.stdout.contains("at most 10"), "\(tooMany.stdout)")
    }

    @Test func elevenPassesFailClearlyAndWriteNothing() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let pass = try build("Generic", count: 1, into: scratch)[0]
        let output = scratch.appendingPathComponent("too-many.pkpasses")
        let result = try passmint(["bundle"] + Array(repeating: pass.path, count: 11) + ["--output", output.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("at most 10 passes"), "\(result.stderr)")
        #expect(result.stderr.contains("11 were given"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aFileThatIsNotAPassFailsNamingIt() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let pass = try build("Generic", count: 1, into: scratch)[0]
        let notes = scratch.appendingPathComponent("notes.pkpass")
        try Data("not a pass".utf8).write(to: notes)
        let output = scratch.appendingPathComponent("out.pkpasses")
        let result = try passmint(["bundle", pass.path, notes.path, "--output", output.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(notes.path) is not a pass"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func festivalTemplateShipsTranslatedStringsWithItsData() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let pass = try build("Festival", count: 1, into: scratch)[0]
        let entries = try ZipArchive.read([UInt8](try Data(contentsOf: pass)), source: pass.lastPathComponent)
        #expect(!entries.contains { $0.name == "strings.json" })
        for language in ["en", "fr", "zh-Hans"] {
            #expect(entries.contains { $0.name == "\(language).lproj/logo@3x.png" })
            let strings = try #require(entries.first { $0.name == "\(language).lproj/pass.strings" })
            #expect(Array(strings.bytes.prefix(2)) == [0xFF, 0xFE])
            let welcome = try StringsFile.parse(strings.bytes).first { $0.key == "WELCOME_TEXT" }?.value ?? ""
            #expect(welcome.contains("Léa Nguyễn") && !welcome.contains("{{"), "\(language): \(welcome)")
        }
    }

    /// The semantic boarding pass template builds a pass that `verify` accepts against the development root, and its
    /// lint shows none of the fallback warnings (the template carries `relevantDate` for iOS 17 and earlier).
    @Test func semanticBoardingPassVerifies() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let pass = try build("SemanticBoardingPass", count: 1, into: scratch)[0]
        let root = try TestEnvironment.devChain().appendingPathComponent("root.pem")
        let verify = try passmint(["verify", pass.path, "--ca", root.path, "--json"])
        #expect(verify.status == 0, "\(verify.stdout)")
        let report = try JSONParser.value(Array(verify.stdout.utf8))
        #expect(report["valid"] == true)
        let checks = report["checks"]?.arrayValue ?? []
        #expect(checks.count == 14)  // every check, signer-validity included
        #expect(!checks.contains { $0["status"]?.stringValue == "failed" }, "\(checks)")
        let codes = (report["lint"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
        #expect(codes.isEmpty, "\(codes)")
        let semantics = try JSONParser.value(
            try #require(ZipArchive.read([UInt8](try Data(contentsOf: pass)), source: "pass").first { $0.name == "pass.json" }).bytes)[
                "semantics"]
        #expect(semantics?["flightNumber"] == 402)
    }

    @Test func removingARequiredBoardingTagFromTheRealTemplateIsANamedError() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let template = try CreateCommandTests.copyTemplate("SemanticBoardingPass", to: scratch)
        let url = template.appendingPathComponent("pass.json")
        var object = try JSONParser.value([UInt8](try Data(contentsOf: url))).objectValue!
        var semantics = try #require(object["semantics"]?.objectValue)
        #expect(semantics["departureCityName"] != nil, "the template has the tag to remove")
        semantics["departureCityName"] = nil
        object["semantics"] = .object(semantics)
        try Data(JSONWriter.data(.object(object))).write(to: url)
        let lint = try passmint(["lint", template.path])
        #expect(lint.status == 1)
        #expect(
            lint.stdout.contains(
                "error: [boarding-semantics-missing] pass.json semantics.departureCityName: a semantic boarding pass needs the semantic tag departureCityName"
            ),
            "\(lint.stdout)")
        #expect(lint.stdout.contains("1 error(s)"), "only the removed tag is reported: \(lint.stdout)")
        let output = scratch.appendingPathComponent("out.pkpass")
        let create = try passmint([
            "create", template.path, "--data", "PassTemplates/SemanticBoardingPass.json", "--certificates", TestEnvironment.devChain().path,
            "--output", output.path,
        ])
        #expect(create.status != 0)
        #expect(create.stderr.contains("departureCityName"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func removingARequiredSemanticTagStopsCreateWithANamedError() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let template = try CreateCommandTests.copyTemplate("PosterEventTicket", to: scratch)
        let url = template.appendingPathComponent("pass.json")
        var json = JSONValue.object(try JSONParser.value([UInt8](try Data(contentsOf: url))).objectValue!)
        if case .object(var object) = json, case .object(var semantics)? = object["semantics"] {
            semantics["venueRegionName"] = nil
            object["semantics"] = .object(semantics)
            json = .object(object)
        }
        try Data(JSONWriter.data(json)).write(to: url)
        let lint = try passmint(["lint", template.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("[poster-semantics-missing] pass.json semantics.venueRegionName"), "\(lint.stdout)")
        let output = scratch.appendingPathComponent("out.pkpass")
        let create = try passmint([
            "create", template.path, "--data", "PassTemplates/PosterEventTicket.json", "--certificates", TestEnvironment.devChain().path,
            "--output", output.path,
        ])
        #expect(create.status != 0)
        #expect(create.stderr.contains("venueRegionName"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
