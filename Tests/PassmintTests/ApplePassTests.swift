import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Apple's own sample passes, rebuilt from their sources with a test identity for Apple's pass type ID and team.
@Suite(.computeThreads) struct ApplePassTests {
    static let passes = TestEnvironment.applePasses

    @Test func fixturesArePresent() throws {
        try #require(Self.passes.count == 5)
    }

    @Test(arguments: passes)
    func rebuiltSourcesGiveTheSameImageHashes(_ url: URL) throws {
        let entries = try ZipArchive.read([UInt8](try Data(contentsOf: url)), source: url.lastPathComponent)
        let folder = TestEnvironment.temporaryFolder("apple").appendingPathComponent("Sample.pass")
        for entry in entries where !entry.name.hasSuffix("/") && entry.name != "manifest.json" && entry.name != "signature" {
            let target = folder.appendingPathComponent(entry.name)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(entry.bytes).write(to: target)
        }
        let appleManifest = try JSONParser.value(try #require(entries.first { $0.name == "manifest.json" }).bytes).objectValue!

        let template = try PassTemplate(folder: folder.path)
        let identity = try TestTemplates.identity(uid: "pass.com.apple.devpubs.example", team: "A93A5CM278")
        let pass = try PassBuilder(identity: identity).sign(PassInput(template: template, data: [:]))
        let ours = try JSONParser.value(pass.manifest).objectValue!

        #expect(Set(ours.keys) == Set(appleManifest.keys))
        for key in appleManifest.keys where key != "pass.json" {
            #expect(ours[key] == appleManifest[key], "\(key)")
        }
        // Apple's pass.json decodes into the typed model.
        let model = try Pass(json: try JSONParser.value(pass.passJSON).objectValue!)
        #expect(model.passTypeIdentifier == "pass.com.apple.devpubs.example")
    }

    @Test func boardingPassTrailingCommaIsToleratedWithAWarning() throws {
        let url = try #require(Self.passes.first { $0.lastPathComponent.contains("boarding") })
        let entries = try ZipArchive.read([UInt8](try Data(contentsOf: url)), source: url.lastPathComponent)
        let bytes = try #require(entries.first { $0.name == "pass.json" }).bytes
        #expect(throws: JSONSyntaxError.self) { try JSONParser.value(bytes) }
        let lenient = try JSONParser.parse(bytes, options: .init(allowTrailingCommas: true))
        #expect(lenient.trailingCommas.count == 1)
    }
}
