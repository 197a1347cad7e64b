import Foundation
import Passmint
import PassmintGoogle

extension LintCommand {
    /// What of this pass or template does not carry over to Google Wallet. Images count as served (the service or
    /// --image-base-url serves them), so only what Google has no place for is listed.
    static func googleFindings(_ contents: PassContents) -> [Diagnostic] {
        guard let pass = contents.passJSON else { return [] }
        let options = GoogleMapping.Options(issuerID: "0", imageBaseURL: URL(string: "https://example.invalid/images"))
        let name = URL(fileURLWithPath: contents.source).deletingPathExtension().lastPathComponent
        do {
            return try GoogleMapping(options: options).map(pass: pass, files: contents.files, templateName: name).findings
        } catch {
            return [Diagnostic(.warning, "google-not-carried", path: "", error.message, fix: "give the pass one of the five styles")]
        }
    }
}
