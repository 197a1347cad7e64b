import ArgumentParser
import Foundation
import Passmint
import PassmintBatch

/// `passmint.json` in the current folder (or the file `--project` names): what `batch` and `update` would otherwise
/// need as options, so a person runs `passmint batch members.csv` and `passmint update points.csv`. Options given on
/// the command line win over it; paths in it are relative to its folder.
///
/// ```json
/// { "template": "PassTemplates/Loyalty.pass", "certificates": "Certificates", "outDir": "cards",
///   "publicURL": "https://passes.example.com/wallet", "service": "https://passes.example.com",
///   "map": { "Mitgliedsnummer": "serialNumber", "Name": "memberName" }, "locale": "de-DE",
///   "timeZone": "Europe/Berlin", "encoding": "windows-1252", "require": ["memberName"] }
/// ```
///
/// `"map"` may send one column to several placeholders (`"Nummer": ["serialNumber", "memberId"]`); `"set"` gives
/// placeholders no column feeds a value for every row, a constant or columns combined (`"memberName": "{{Vorname}}
/// {{Nachname}}"`); `"serialColumn"` names the serial numbers' column.
struct ProjectFile {
    static let defaultName = "passmint.json"
    static let keys: Set<String> = [
        "template", "certificates", "outDir", "publicURL", "service", "register", "map", "locale", "dateFormat", "timeZone",
        "encoding", "delimiter", "require", "passType", "set", "serialColumn",
    ]

    let path: String
    var template: String?
    var certificates: String?
    var outDir: String?
    var publicURL: String?
    var service: String?
    /// The update service's store (as `--register`).
    var register: String?
    var mapping: ColumnMapping?
    var locale: String?
    var dateFormat: String?
    var timeZone: String?
    var encoding: String?
    var delimiter: String?
    var require: [String] = []
    var passType: String?

    /// The project file: `explicit` when given (it must exist), else `passmint.json` in the current folder when there
    /// is one, else nil.
    static func load(_ explicit: String?) throws -> ProjectFile? {
        let path = explicit ?? defaultName
        guard explicit != nil || FileManager.default.fileExists(atPath: path) else { return nil }
        return try ProjectFile(path: path)
    }

    init(path: String) throws {
        self.path = path
        let object = try JSONParser.object(
            try FileIO.readText(path, what: "project file"), file: "project file \(path)", shape: "{ \"template\": \"…\", … }",
            code: .invalidData)
        for key in object.members.map(\.key) where !Self.keys.contains(key) {
            throw ValidationError(
                "project file \(path): \"\(key)\" is not a setting Passmint knows (it reads \(Self.keys.sorted().joined(separator: ", ")))")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        func text(_ key: String) throws -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value.stringValue, !text.isEmpty else {
                throw ValidationError("project file \(path): \"\(key)\" must be a text in quotes, not \(value.typeName)")
            }
            return text
        }
        func file(_ key: String) throws -> String? {
            guard let text = try text(key) else { return nil }
            return text.hasPrefix("/") || text.contains("://") ? text : folder.appendingPathComponent(text).path
        }
        template = try file("template")
        certificates = try file("certificates")
        outDir = try file("outDir")
        register = try text("register").map { $0.contains("://") || $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).path }
        publicURL = try text("publicURL")
        service = try text("service")
        locale = try text("locale")
        dateFormat = try text("dateFormat")
        timeZone = try text("timeZone")
        encoding = try text("encoding")
        delimiter = try text("delimiter")
        passType = try text("passType")
        if let map = object["map"] {
            guard let entries = map.objectValue else {
                throw ValidationError("project file \(path): \"map\" must be an object { \"Column\": \"placeholder\", … }")
            }
            mapping = try ColumnMapping(object: entries, source: "project file \(path): \"map\"")
        }
        if let set = object["set"] {
            guard let values = set.objectValue else {
                throw ValidationError(
                    "project file \(path): \"set\" must be an object { \"placeholder\": \"value\", … }, e.g. { \"nfcMessage\": \"MLC\" }")
            }
            var withValues = mapping ?? ColumnMapping()
            withValues.values = try ColumnMapping.values(object: values, source: "\"set\" in \(path)")
            mapping = withValues
        }
        if let column = try text("serialColumn") {
            if let entry = mapping?.entries.first(where: { $0.placeholder == "serialNumber" }) {
                throw ValidationError(
                    "project file \(path): \"serialColumn\" names \(column), and \"map\" maps \(entry.column) to serialNumber: keep one of them"
                )
            }
            var withSerial = mapping ?? ColumnMapping()
            withSerial.entries.append(ColumnMapping.Entry(column: column, placeholder: "serialNumber", optional: true))
            mapping = withSerial
        }
        if let names = object["require"] {
            guard let array = names.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
                throw ValidationError("project file \(path): \"require\" must be a list of placeholder names [\"memberName\", …]")
            }
            require = array.compactMap(\.stringValue)
        }
    }
}
