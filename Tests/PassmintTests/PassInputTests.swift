import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// One ``PassInput`` for every way of building a pass, and its ``PassStamp`` written over whatever the template or
/// JSON says.
@Suite(.computeThreads) struct PassInputTests {
    static let stamp = PassStamp(
        serialNumber: "ST-9", authenticationToken: "stamp-token-0123456789", webServiceURL: "https://passes.example.test/wallet",
        voided: true)

    @Test func theStampWinsOverTheTemplateAndTheData() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let builder = PassBuilder(identity: try TestTemplates.identity())
        let input = PassInput(template: template, data: TestTemplates.data, stamp: Self.stamp)  // the data's serial is S-1
        let built = try builder.sign(input)
        let json = try JSONParser.value(built.passJSON)
        #expect(json["serialNumber"] == "ST-9" && built.serialNumber == "ST-9")
        #expect(json["barcodes"]?.arrayValue?.first?["message"] == "ST-9", "{{serialNumber}} shows the stamped serial")
        #expect(json["authenticationToken"] == "stamp-token-0123456789")
        #expect(json["webServiceURL"] == "https://passes.example.test/wallet")
        #expect(json["voided"] == true)
        #expect(try builder.prepare(input).passJSON == built.passJSON, "prepare writes the pass.json sign signs")
        #expect(try builder.check(input) == "pass.dev.passmint.example")
        #expect(Self.stamp.stamped(data: TestTemplates.data)["serialNumber"] == "ST-9")

        let unstamped = try JSONParser.value(try builder.prepare(PassInput(template: template, data: TestTemplates.data)).passJSON)
        #expect(unstamped["serialNumber"] == "S-1")
        #expect(unstamped["authenticationToken"] == nil && unstamped["webServiceURL"] == nil && unstamped["voided"] == nil)
    }

    @Test func aPassJSONInputTakesTheStampAndItsOwnImages() throws {
        let text = TestTemplates.passJSON.replacingOccurrences(of: "{{serialNumber}}", with: "J-1")
            .replacingOccurrences(of: "{{points}}", with: "5").replacingOccurrences(of: "{{name}}", with: "Ann")
        let passJSON = try #require(try JSONParser.value(Array(text.utf8)).objectValue)
        let icon = try PassFile(path: "icon.png", bytes: TestTemplates.png(width: 29, height: 29))
        let ownIcon = TestTemplates.png(width: 38, height: 38)
        let images = try PassImages([(key: "icon", bytes: ownIcon, label: "images.icon")])
        let built = try PassBuilder(identity: try TestTemplates.identity()).sign(
            PassInput(passJSON: passJSON, files: [icon], images: images, stamp: Self.stamp))
        let json = try JSONParser.value(built.passJSON)
        #expect(json["serialNumber"] == "ST-9" && json["voided"] == true)
        #expect(json["barcodes"]?.arrayValue?.first?["message"] == "J-1", "a finished pass.json has no placeholders to fill")
        let entries = try ZipArchive.read(built.archive, source: "ST-9.pkpass")
        #expect(entries.first { $0.name == "icon.png" }?.bytes == ownIcon, "the pass's own icon replaces the files' one")
    }
}
