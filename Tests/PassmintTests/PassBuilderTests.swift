import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct PassBuilderTests {
    @Test func buildsAPassThatIndependentToolsAccept() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(template: template, data: TestTemplates.data))

        let entries = try ZipArchive.read(pass.archive, source: "test.pkpass")
        // Template files first (every pass of a template starts with the same bytes), then the per-pass files.
        #expect(entries.map(\.name) == ["icon.png", "icon@2x.png", "icon@3x.png", "pass.json", "manifest.json", "signature"])
        #expect(entries.first { $0.name == "icon.png" }?.bytes == template.files.first { $0.path == "icon.png" }?.bytes)
        #expect(entries.first { $0.name == "pass.json" }?.compressed == false, "JSON is stored: deflating it costs more than it saves")
        #expect(entries.first { $0.name == "pass.json" }?.bytes == pass.passJSON)

        let json = try JSONParser.value(pass.passJSON)
        #expect(json["passTypeIdentifier"]?.stringValue == "pass.dev.passmint.example", "taken from the certificate UID")
        #expect(json["teamIdentifier"]?.stringValue == "DEVTEAM123", "taken from the certificate OU")
        #expect(json["storeCard"]?["primaryFields"]?.arrayValue?.first?["value"] == .number(JSONNumber(1250)))
        #expect(json["storeCard"]?["secondaryFields"]?.arrayValue?.first?["value"]?.stringValue == "Dear Zoë Müller")
        #expect(json["futureKey"] == ["kept": true], "unknown keys are kept")

        let file = TestEnvironment.temporaryFolder().appendingPathComponent("test.pkpass")
        try FileIO.writeAtomically(pass.archive, to: file.path)
        let check = try TestEnvironment.independentlyCheck(file, root: TestEnvironment.devChain().appendingPathComponent("root.pem"))
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func sameTemplateAndDataGiveTheSamePassJSONAndManifest() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let builder = try PassBuilder(identity: TestTemplates.identity())
        let first = try builder.sign(PassInput(template: template, data: TestTemplates.data))
        let second = try builder.sign(PassInput(template: try PassTemplate(folder: template.folder), data: TestTemplates.data))
        #expect(first.passJSON == second.passJSON)
        #expect(first.manifest == second.manifest)
        let manifest = try JSONParser.value(first.manifest).objectValue!
        #expect(manifest.keys == ["icon.png", "icon@2x.png", "icon@3x.png", "pass.json"])
        #expect(manifest["pass.json"]?.stringValue == Digest.sha1Hex(first.passJSON))
    }

    @Test func precompressedDataKeepsIncompressibleBytesStored() throws {
        let random = OpenSSL.randomBytes(4096)
        let stored = try PrecompressedData(compressing: random, name: "noise.png")
        #expect(stored.compressedSize == 4096)
        let text = Array(String(repeating: "{\"key\": \"value\"}\n", count: 100).utf8)
        let deflated = try PrecompressedData(compressing: text, name: "pass.strings")
        #expect(deflated.compressedSize < text.count / 4)
        let small = PrecompressedData(deflatingSmall: text)
        #expect(small.compressedSize < text.count / 4)
    }

    @Test func archiveSHA256WithTheTemplatePrefixMatchesAFullHash() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(template: template, data: TestTemplates.data))
        #expect(template.archivePrefix != nil)
        #expect(template.sha256Hex(ofArchive: pass.archive) == Digest.sha256Hex(pass.archive))
        let other = Array("not an archive of this template".utf8)
        #expect(template.sha256Hex(ofArchive: other) == Digest.sha256Hex(other))
    }

    @Test func templateFilesAreHashedOnceAtLoad() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let icon = try #require(template.files.first { $0.path == "icon.png" })
        #expect(icon.sha1 == Digest.sha1Hex(icon.bytes))
        #expect(icon.png == PNGInfo(width: 38, height: 38))
    }

    @Test func localizedFilesGoIntoTheManifestWithForwardSlashes() throws {
        var files = ["icon.png": TestTemplates.png(width: 38, height: 38)]
        files["fr.lproj/pass.strings"] = Array("\"Points\" = \"Points\";\n".utf8)
        files["fr.lproj/logo.png"] = TestTemplates.png(width: 160, height: 50)
        files[".DS_Store"] = [0, 1, 2]
        let template = try PassTemplate(folder: TestTemplates.write(files: files).path)
        #expect(template.files.map(\.path) == ["fr.lproj/logo.png", "fr.lproj/pass.strings", "icon.png"])
        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(template: template, data: TestTemplates.data))
        let manifest = try JSONParser.value(pass.manifest).objectValue!
        #expect(manifest["fr.lproj/pass.strings"] != nil)
        #expect(manifest[".DS_Store"] == nil)
    }

    @Test func buildsFromTheTypedModel() throws {
        var pass = Pass(
            passTypeIdentifier: "pass.dev.passmint.example", serialNumber: "M-1", teamIdentifier: "DEVTEAM123",
            organizationName: "Model Org", description: "Model pass", style: .eventTicket,
            fields: PassFields(primaryFields: [PassField(key: "event", value: .string("Concert"))]))
        pass.sharingProhibited = true
        pass.nfc = NFC(message: "hello", encryptionPublicKey: TestTemplates.p256PublicKey, requiresAuthentication: false)
        pass.barcodes = [Barcode(format: .qr, message: "M-1")]
        let icon = try PassFile(path: "icon.png", bytes: TestTemplates.png(width: 38, height: 38))
        let built = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(pass: pass, files: [icon]))
        let json = try JSONParser.value(built.passJSON)
        #expect(json["sharingProhibited"] == true)
        #expect(json["nfc"]?["message"]?.stringValue == "hello")
        #expect(json["eventTicket"]?["primaryFields"]?.arrayValue?.count == 1)
        let decoded = try Pass(json: json.objectValue!)
        #expect(decoded == pass)
    }

    // MARK: Bad input: each error names the file or key and says what to do.

    func buildError(passJSON: String = TestTemplates.passJSON, files: [String: [UInt8]]? = nil, data: JSONObject = TestTemplates.data)
        throws -> PassmintError
    {
        do {
            let template = try PassTemplate(folder: try TestTemplates.write(passJSON: passJSON, files: files).path)
            _ = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(template: template, data: data))
        } catch let error as PassmintError {
            return error
        }
        Issue.record("expected the build to fail")
        return PassmintError(.fileSystem, "")
    }

    @Test func invalidJSONGivesFileLineAndColumn() throws {
        let error = try buildError(passJSON: "{\n  \"formatVersion\": 1\n  \"serialNumber\": \"x\"\n}")
        #expect(error.code == .invalidTemplate)
        #expect(error.message.contains("Test.pass/pass.json"))
        #expect(error.message.contains("line 3, column 3"))
    }

    @Test func missingRequiredKeyIsNamed() throws {
        let error = try buildError(
            passJSON: TestTemplates.passJSON.replacingOccurrences(of: "\"organizationName\": \"Passmint Tests\",", with: ""))
        #expect(error.code == .invalidPass)
        #expect(error.message.contains("organizationName"))
        #expect(error.message.contains("missing"))
    }

    @Test func numberWhereAStringIsNeededIsNamed() throws {
        let error = try buildError(passJSON: TestTemplates.passJSON.replacingOccurrences(of: "\"Passmint Tests\"", with: "42"))
        #expect(error.code == .invalidPass)
        #expect(error.message.contains("organizationName must be a string, not number"))
    }

    @Test func wrongTypeFromDataIsNamedWithItsPath() throws {
        var data = TestTemplates.data
        data["points"] = ["not": "a value"]
        let error = try buildError(data: data)
        #expect(error.message.contains("storeCard.primaryFields[0].value"))
    }

    @Test func duplicateFieldKeyIsNamed() throws {
        let error = try buildError(
            passJSON: TestTemplates.passJSON.replacingOccurrences(of: "\"key\": \"name\"", with: "\"key\": \"points\""))
        #expect(error.message.contains("\"points\" is already used"))
    }

    @Test func noIconIsAnError() throws {
        let error = try buildError(files: ["logo.png": TestTemplates.png(width: 160, height: 50)])
        #expect(error.code == .invalidImage)
        #expect(error.message.contains("icon.png"))
    }

    @Test func fileThatIsNotAPNGIsNamed() throws {
        let error = try buildError(files: [
            "icon.png": TestTemplates.png(width: 38, height: 38), "logo.png": Array("<svg></svg> not a png at all".utf8),
        ])
        #expect(error.code == .invalidImage)
        #expect(error.message.contains("Test.pass/logo.png"))
    }

    @Test func missingPlaceholderValueIsNamed() throws {
        var data = TestTemplates.data
        data["name"] = nil
        let error = try buildError(data: data)
        #expect(error.code == .invalidData)
        #expect(error.message.contains("{{name}}"))
        #expect(error.message.contains("pass.json"))
    }

    @Test func uidMismatchBetweenPassAndCertificate() throws {
        let json = TestTemplates.passJSON.replacingOccurrences(
            of: "\"formatVersion\": 1,", with: "\"formatVersion\": 1, \"passTypeIdentifier\": \"pass.com.example.x\",")
        let error = try buildError(passJSON: json)
        #expect(error.code == .identityMismatch)
        #expect(error.message.contains("pass.com.example.x"))
        #expect(error.message.contains("pass.dev.passmint.example"))
    }
}
