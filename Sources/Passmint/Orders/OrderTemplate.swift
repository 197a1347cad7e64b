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

    static let ignoredNames: Set<String> = ["manifest.json", "signature", "strings.json", ".DS_Store", "Thumbs.db", "desktop.ini"]

    /// Builds a template from parts in memory.
    public init(folder: String, orderJSON: JSONValue, files: [PassFile]) throws(PassmintError) {
        guard orderJSON.objectValue != nil else {
            throw PassmintError(.invalidTemplate, "\(folder)/order.json must hold a JSON object ({ … }), not \(orderJSON.typeName)")
        }
        self.folder = folder
        self.orderJSON = orderJSON
        self.files = files.sorted { $0.path < $1.path }
    }

    /// Reads a template folder.
    public init(folder: String) throws(PassmintError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PassmintError(
                .invalidTemplate,
                "template folder \(folder) does not exist (an order template is a folder such as Shipment.order/ holding order.json and images)"
            )
        }
        let orderPath = folder + "/order.json"
        let parsed: JSONValue
        do {
            parsed = try JSONParser.value(try FileIO.read(orderPath, what: "order.json of the template"))
        } catch let error as PassmintError {
            throw error
        } catch {
            throw PassmintError(.invalidTemplate, "\(orderPath) is not valid JSON: \(error)")
        }
        var files: [PassFile] = []
        for entry in try Self.list(folder) where entry != "order.json" && !Self.isIgnored(entry) {
            let path = folder + "/" + entry
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            guard isFolder.boolValue else {
                files.append(try PassFile(path: entry, bytes: try FileIO.read(path, what: "template file"), label: path))
                continue
            }
            guard entry.hasSuffix(".lproj") else {
                throw PassmintError(
                    .invalidTemplate,
                    "\(path) is a folder, but an order may only hold <language>.lproj folders (e.g. fr.lproj): move it out of the template")
            }
            for file in try Self.list(path) where !Self.isIgnored(file) {
                let filePath = path + "/" + file
                files.append(
                    try PassFile(path: entry + "/" + file, bytes: try FileIO.read(filePath, what: "template file"), label: filePath))
            }
        }
        let stringsPath = folder + "/strings.json"
        if FileManager.default.fileExists(atPath: stringsPath) {
            let languages = try TemplateStrings.parse(try FileIO.read(stringsPath, what: "translations file"), source: stringsPath)
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

    private static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "__MACOSX" || ignoredNames.contains(name)
    }

    private static func list(_ folder: String) throws(PassmintError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw PassmintError(.fileSystem, "cannot list \(folder): \(error.localizedDescription)")
        }
    }
}
