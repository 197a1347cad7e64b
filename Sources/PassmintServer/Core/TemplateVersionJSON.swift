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

    /// A version published by the job `job`.
    static func published(_ template: PassTemplate, job: String) -> String {
        var object = Self.object(template)
        object["job"] = .string(job)
        return JSONWriter.string(.object(object), style: .compact)
    }

    /// The job that published the version ``published(_:job:)`` wrote; nil when it names none.
    static func job(_ text: String) -> String? {
        (try? JSONParser.value(Array(text.utf8)))?["job"]?.stringValue
    }
}
