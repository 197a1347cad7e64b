import Foundation

/// An order template: a folder `Name.order/` with `order.json` (which may hold `{{placeholders}}`, filled as in pass
/// templates), images, `<lang>.lproj/order.strings` files, and optionally `strings.json` (language → key → text),
/// written into `<lang>.lproj/order.strings` (UTF-16 LE with a BOM) and not shipped. Read once; immutable.
public struct OrderTemplate: Sendable {
    public let folder: String
    /// `order.json` as parsed, placeholders intact.
    public let orderJSON: JSONValue
    /// Every other file of the order, sorted by path.
    public let files: [PassFile]

    /// Builds a template from parts in memory.
    public init(folder: String, orderJSON: JSONValue, files: [PassFile]) throws(PassmintError) {
        guard orderJSON.objectValue != nil else {
            throw PassmintError(.invalidTemplate, "\(folder)/order.json must hold a JSON object ({ … }), not \(orderJSON.typeName)")
        }
        self.folder = folder
        self.orderJSON = orderJSON
        self.files = files.sorted { $0.path < $1.path }
    }

    /// Reads a template folder, as ``TemplateFolder`` reads every template: no symbolic link, regular files only, each
    /// size checked before it is read.
    ///
    /// - Throws: ``PassmintError/Code/invalidTemplate`` naming the file, for a link, a FIFO or device, a file over its
    ///   limit, or a file Wallet does not read (it would be shipped in every order).
    public init(folder: String) throws(PassmintError) {
        let contents = try TemplateFolder.read(folder, package: .order)
        if let unknown = contents.unknown.first {
            let fix =
                unknown.hasSuffix(".lproj/pass.strings")
                ? "an order's translations are read from order.strings: rename it to "
                    + unknown.replacingOccurrences(of: "pass.strings", with: "order.strings")
                : "it would be shipped in every order, so move it out of the template"
            throw PassmintError(
                .invalidTemplate,
                "\(folder)/\(unknown) is not a file Wallet reads in an order (it reads order.json, PNG images and "
                    + "<language>.lproj/order.strings): \(fix)")
        }
        let orderPath = folder + "/order.json"
        let parsed: JSONValue
        do {
            parsed = try JSONParser.value(contents.main)
        } catch {
            throw PassmintError(.invalidTemplate, "\(orderPath) is not valid JSON: \(error)")
        }
        var files: [PassFile] = []
        for file in contents.files {
            files.append(try PassFile(path: file.path, bytes: file.bytes, label: folder + "/" + file.path))
        }
        if let stringsJSON = contents.stringsJSON {
            let stringsPath = folder + "/" + TemplateStrings.fileName
            let languages = try TemplateStrings.parse(stringsJSON, source: stringsPath)
            for language in languages {
                let path = "\(language.code).lproj/order.strings"
                guard !files.contains(where: { $0.path == path }) else {
                    throw PassmintError(
                        .invalidTemplate, "\(folder) has both \(path) and \"\(language.code)\" in strings.json: keep one of them")
                }
                files.append(PassFile(smallFile: path, bytes: StringsFile.write(language.entries)))
            }
        }
        try self.init(folder: folder, orderJSON: parsed, files: files)
    }

    /// This order's `order.json` content: every placeholder replaced from `data`.
    public func render(data: JSONObject) throws(PassmintError) -> JSONObject {
        try Placeholders.substitute(orderJSON, data: data, file: folder + "/order.json").objectValue ?? JSONObject()
    }
}
