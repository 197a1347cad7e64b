import Foundation
import Passmint
import PassmintGoogle
import PassmintPreview

extension PreviewCommand {
    /// The Google Wallet card of `preview` (`--google`), as `passmint google link` would send it, for the page's row
    /// of devices, its numbers and dates in the language and time zone of `previewOptions`; what does not carry over is
    /// in `passmint lint --google`.
    static func googleCard(_ preview: PassPreview, path: String, previewOptions: PassPreview.Options) throws -> String {
        var options = GoogleMapping.Options(issuerID: "3388000000000000000")
        options.imageURL = { URL(string: GoogleCardPreview.imageScheme + $0) }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let mapped = try GoogleMapping(options: options).map(pass: preview.passJSON, files: preview.files, templateName: name)
        return GoogleCardPreview(
            classBody: mapped.classBody, objectBody: mapped.objectBody, files: preview.files, passJSON: preview.passJSON
        ).section(previewOptions)
    }
}
