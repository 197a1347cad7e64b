import Foundation
import Passmint
import PassmintStore

/// A template version as JSON, to keep it on disk or in the database: `{"folder", "passJSON", "files": [{"path",
/// "base64"}]}`; a version published also names the passes it does not fit (`"kept": [["<type>", "<serial>"]]`) and
/// the version it replaced, which they keep (`"replaced"`).
enum TemplateVersionJSON {
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

    /// A version published by the job `job`, with the passes it keeps at `replaced`.
    static func published(_ template: PassTemplate, kept: Set<PassKey>, replaced: PassTemplate?, job: String) -> String {
        var object = Self.object(template)
        object["job"] = .string(job)
        let keys = kept.sorted { ($0.passTypeIdentifier, $0.serialNumber) < ($1.passTypeIdentifier, $1.serialNumber) }
        object["kept"] = .array(keys.map { [.string($0.passTypeIdentifier), .string($0.serialNumber)] })
        if let replaced, !kept.isEmpty { object["replaced"] = .object(Self.object(replaced)) }
        return JSONWriter.string(.object(object), style: .compact)
    }

    /// Reads back ``published(_:kept:replaced:)``, the versions at `folder`; nil when it is not a version.
    static func published(_ text: String, folder: String) -> (template: PassTemplate, kept: Set<PassKey>, replaced: PassTemplate?)? {
        guard let object = try? JSONParser.value(Array(text.utf8)), let template = template(object, folder: folder) else { return nil }
        var kept = Set<PassKey>()
        for pair in object["kept"]?.arrayValue ?? [] {
            guard let type = pair.arrayValue?.first?.stringValue, let serial = pair.arrayValue?.last?.stringValue else { continue }
            kept.insert(PassKey(passTypeIdentifier: type, serialNumber: serial))
        }
        return (template, kept, object["replaced"].flatMap { Self.template($0, folder: folder) })
    }

    /// The job that published the version ``published(_:kept:replaced:job:)`` wrote; nil when it names none.
    static func job(_ text: String) -> String? {
        (try? JSONParser.value(Array(text.utf8)))?["job"]?.stringValue
    }
}
