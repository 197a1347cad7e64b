import Foundation
import Passmint
import PassmintGoogle
import PassmintTestSupport

/// The repository's sample templates (PassTemplates/) rendered with their sample data, and mapped for Google.
enum SampleTemplates {
    static let names = [
        "BoardingPass", "Coupon", "EventTicket", "Festival", "Generic", "Loyalty", "PosterEventTicket", "Rewards", "SemanticBoardingPass",
        "StoreCard",
    ]

    static var folder: URL { TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates") }

    /// The pass.json and files of one sample pass.
    static func rendered(_ name: String) throws -> (pass: JSONObject, files: [PassContents.File]) {
        let template = try PassTemplate(folder: folder.appendingPathComponent("\(name).pass").path)
        let bytes = try Data(contentsOf: folder.appendingPathComponent("\(name).json"))
        let data = try JSONParser.value(Array(bytes)).objectValue ?? JSONObject()
        return (
            try template.render(data: data), try template.renderFiles(data: data).map { PassContents.File(path: $0.path, bytes: $0.bytes) }
        )
    }

    static let options = GoogleMapping.Options(
        issuerID: GoogleHarness.issuerID, imageBaseURL: URL(string: "https://passes.example.com/google/images"))

    static func mapped(_ name: String, options: GoogleMapping.Options = options) throws -> GoogleMapping.Mapped {
        let (pass, files) = try rendered(name)
        return try GoogleMapping(options: options).map(pass: pass, files: files, templateName: name)
    }
}
