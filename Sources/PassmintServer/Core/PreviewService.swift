import Foundation
package import Passmint
package import PassmintPreview
import PassmintStore

/// Preview pages for the issuer's back office: a stored pass as its holder sees it, or a template with its sample
/// data (`<templates>/<Name>.json` beside `<Name>.pass`) or posted data. The same HTML `passmint preview` writes,
/// with the server's folders left out of it. Pages are rendered on `CPUWork`'s threads, off the pool that answers
/// devices.
package struct PreviewService: Sendable {
    let store: any PassStore
    let renderer: PassRenderer
    let templates: TemplateCatalog

    /// The preview of a stored pass, built as a device would download it now.
    ///
    /// - Throws: 404 when there is no such pass, 422 when it does not render (its template changed, say).
    package func pass(passTypeIdentifier: String, serialNumber: String, options: PassPreview.Options) async throws -> String {
        let stored = try await store.existing(.pass, passTypeIdentifier, serialNumber)
        let prepared = try await renderer.prepare(stored)
        let templates = templates
        return try await CPUWork.run {
            let (json, reading) = PassContents.parse(passJSON: prepared.passJSON)
            let contents = PassContents(
                source: "\(passTypeIdentifier)/\(serialNumber)", passJSON: json,
                files: prepared.files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }, isTemplate: false,
                readingDiagnostics: reading)
            return templates.redacted(PassPreview(contents: contents, lintOptions: LintOptions(allowHTTPWebService: true)).html(options))
        }
    }

    /// The preview of template `name` filled with `data`, or with its sample data file when `data` is nil (none: no
    /// data, placeholders left as they are and listed).
    ///
    /// - Throws: 400 for a name that is not a template's, 422 when the sample data file is not a JSON object.
    package func template(named name: String, data: JSONObject?, options: PassPreview.Options) async throws(ServiceFailure) -> String {
        try await CPUWork.run { () throws(ServiceFailure) in try render(template: name, data: data, options: options) }
    }

    /// ``template(named:data:options:)``'s work, on ``CPUWork``'s threads (it reads the template's files too).
    private func render(template name: String, data: JSONObject?, options: PassPreview.Options) throws(ServiceFailure) -> String {
        let allowed = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        guard !name.isEmpty, allowed, !name.hasPrefix(".") else {
            throw .badRequest("template names are letters, digits, '-', '_' and '.'")
        }
        let base = name.hasSuffix(".pass") ? String(name.dropLast(5)) : name
        let folder = templates.folder + "/" + base + ".pass"
        guard FileManager.default.fileExists(atPath: folder + "/pass.json") else { throw .notFound }
        var values = data ?? JSONObject()
        let sample = templates.folder + "/" + base + ".json"
        if data == nil, FileManager.default.fileExists(atPath: sample) {
            let bytes: [UInt8]
            do {
                bytes = try TemplateFolder.file(sample, kind: .json, what: "sample data")
            } catch {
                throw .unprocessable("the sample data of template \(base): \(templates.redacted(error.message))")
            }
            guard let object = try? JSONParser.value(bytes).objectValue else {
                throw .unprocessable("the sample data \(base).json of template \(base) is not a JSON object")
            }
            values = object
        }
        do {
            return templates.redacted(try PassPreview(templateFolder: folder, data: values).html(options))
        } catch {
            throw .unprocessable("template \(base): \(templates.redacted(error.message))")
        }
    }
}
