import Foundation
public import Passmint

/// A gallery of previews: every template of a folder (`PassTemplates/`) drawn with its sample data
/// (`PassTemplates/X.json` beside `X.pass`), one page each, and an index page linking them.
public struct PassPreviewGallery: Sendable {
    /// One template of the gallery.
    public struct Entry: Sendable {
        /// The template's name (`Loyalty` for `Loyalty.pass`).
        public var name: String
        /// The file name of its page in the gallery (`Loyalty.html`).
        public var page: String
        /// The template's preview with its sample data.
        public var preview: PassPreview
    }

    /// Every template of the folder, sorted by name.
    public let entries: [Entry]

    /// Previews every `*.pass` folder in `folder` with the data in the `.json` file of the same name (none: no data).
    ///
    /// - Throws: `PassmintError.Code.fileSystem` when the folder cannot be listed, `PassmintError.Code.invalidData`
    ///   when a sample data file is not a JSON object, and `PassmintError.Code.invalidTemplate` when it holds no
    ///   template.
    public init(folder: String) throws(PassmintError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pass") }.sorted()
        } catch {
            throw PassmintError(.fileSystem, "cannot list \(folder): \(error.localizedDescription)")
        }
        guard !names.isEmpty else {
            throw PassmintError(
                .invalidTemplate, "\(folder) holds no template folder (Name.pass/): point preview at one or at a folder of them")
        }
        var entries: [Entry] = []
        for name in names {
            let base = String(name.dropLast(5))
            let dataPath = folder + "/" + base + ".json"
            var data = JSONObject()
            if FileManager.default.fileExists(atPath: dataPath) {
                let bytes = try TemplateFolder.file(dataPath, kind: .json, what: "sample data")
                guard let object = try? JSONParser.value(bytes).objectValue else {
                    throw PassmintError(.invalidData, "\(dataPath) must hold one JSON object of sample data ({ \"name\": value, … })")
                }
                data = object
            }
            let preview = try PassPreview(templateFolder: folder + "/" + name, data: data)
            entries.append(Entry(name: base, page: base + ".html", preview: preview))
        }
        self.entries = entries
    }

    /// The index page: a link to each template's page with its description, style and lint counts.
    public func indexHTML(title: String = "Pass templates") -> String {
        let items = entries.map { entry -> String in
            let pass = entry.preview.passJSON
            let style = Pass.Style.allCases.first { pass[$0.rawValue] != nil }?.rawValue ?? "unreadable"
            let errors = entry.preview.diagnostics.filter { $0.severity == .error }.count
            let warnings = entry.preview.diagnostics.count - errors
            return """
                <li data-template="\(HTMLText.escape(entry.name))">\
                <a href="\(HTMLText.escape(entry.page))">\(HTMLText.escape(entry.name))</a> \
                <span class="style">\(style)</span> — \(HTMLText.escape(pass["description"]?.stringValue ?? "")) \
                <span class="lint">\(errors) error(s), \(warnings) warning(s)</span></li>
                """
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(HTMLText.escape(title)) — Passmint preview</title>\
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">\
            <style>body{font:15px -apple-system,"Helvetica Neue","DejaVu Sans",Arial,sans-serif;margin:32px}\
            li{margin:8px 0}.style{color:#636366;font-size:12px}.lint{color:#636366;font-size:12px}</style></head>
            <body><h1>\(HTMLText.escape(title))</h1><ul class="gallery">\(items.joined())</ul></body></html>

            """
    }
}
