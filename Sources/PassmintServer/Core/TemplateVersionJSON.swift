import Foundation
import Passmint
import PassmintStore

/// A template version as JSON, to keep it in the database: `{"folder", "passJSON", "files": [{"path", "base64"}]}`; its
/// content (``content(_:)``, without the folder) is what ``hash(_:)`` hashes and ``TemplateVersionStore`` keeps. A
/// version published also names the passes it does not fit (`"kept": [["<type>", "<serial>"]]`): they stay at the
/// version their rows name.
enum TemplateVersionJSON {
    /// The version's content as stored: `pass.json` and every file as the catalog read them, wherever the folder is.
    static func content(_ template: PassTemplate) -> String {
        var object = Self.object(template)
        object["folder"] = nil
        return JSONWriter.string(.object(object), style: .compact)
    }

    /// The version's content hash: the lowercase hex SHA-256 of ``content(_:)``.
    static func hash(_ template: PassTemplate) -> String { Digest.sha256Hex(Array(content(template).utf8)) }

    static func object(_ template: PassTemplate) -> JSONObject {
        let files: [JSONValue] = template.files.map { file in
            ["path": .string(file.path), "base64": .string(Data(file.bytes).base64EncodedString())]
        }
        return ["folder": .string(template.folder), "passJSON": template.passJSON, "files": .array(files)]
    }

    /// The version `object` holds, at `folder` when given (where this node keeps the template), else where it was.
    static func template(_ object: JSONValue, folder given: String? = nil) -> PassTemplate? {
        guard let folder = given ?? object["folder"]?.stringValue, let passJSON = object["passJSON"],
            let entries = object["files"]?.arrayValue
        else { return nil }
        var files: [PassFile] = []
        for entry in entries {
            guard let path = entry["path"]?.stringValue, let text = entry["base64"]?.stringValue, let bytes = Data(base64Encoded: text),
                let file = try? PassFile(path: path, bytes: [UInt8](bytes))
            else { return nil }
            files.append(file)
        }
        return try? PassTemplate(folder: folder, passJSON: passJSON, files: files)
    }

    /// A version published by the job `job`, with the passes it does not fit.
    static func published(_ template: PassTemplate, kept: Set<PassKey>, job: String) -> String {
        var object = Self.object(template)
        object["job"] = .string(job)
        let keys = kept.sorted { ($0.passTypeIdentifier, $0.serialNumber) < ($1.passTypeIdentifier, $1.serialNumber) }
        object["kept"] = .array(keys.map { [.string($0.passTypeIdentifier), .string($0.serialNumber)] })
        return JSONWriter.string(.object(object), style: .compact)
    }

    /// Reads back ``published(_:kept:job:)``, the version at `folder`; nil when it is not a version.
    static func published(_ text: String, folder: String) -> (template: PassTemplate, kept: Set<PassKey>)? {
        guard let object = try? JSONParser.value(Array(text.utf8)), let template = template(object, folder: folder) else { return nil }
        var kept = Set<PassKey>()
        for pair in object["kept"]?.arrayValue ?? [] {
            guard let type = pair.arrayValue?.first?.stringValue, let serial = pair.arrayValue?.last?.stringValue else { continue }
            kept.insert(PassKey(passTypeIdentifier: type, serialNumber: serial))
        }
        return (template, kept)
    }

    /// The job that published the version ``published(_:kept:job:)`` wrote; nil when it names none.
    static func job(_ text: String) -> String? {
        (try? JSONParser.value(Array(text.utf8)))?["job"]?.stringValue
    }
}
