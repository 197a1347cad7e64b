public import Foundation
public import Passmint

/// Google's published discovery document for the Wallet API (`walletobjects.v1.json`, from PyPI's
/// `google-api-python-client`, copied into `Tests/Fixtures/google/`), read for the Google stand-in: which REST
/// collections exist and which schema each accepts, and a check of a request body against that schema the way
/// Google's JSON decoding refuses it (an unknown property, a wrong type, a value outside an enum).
public struct DiscoveryDocument: Sendable {
    /// Schemas by name (`LoyaltyClass`, `Barcode`, …).
    let schemas: JSONObject
    /// The schema a collection's insert accepts, by collection (`loyaltyClass` → `LoyaltyClass`).
    public let collections: [String: String]

    /// The copy in `Tests/Fixtures/google/`.
    public static var fixture: URL { TestEnvironment.fixtures.appendingPathComponent("google/walletobjects.v1.json") }

    public init(contentsOf url: URL = DiscoveryDocument.fixture) throws {
        let document = try JSONParser.value(Array(try Data(contentsOf: url)))
        guard let schemas = document["schemas"]?.objectValue, let resources = document["resources"]?.objectValue else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(url.path) has no schemas or resources"])
        }
        var collections: [String: String] = [:]
        for resource in resources {
            guard let insert = resource.value["methods"]?["insert"], let path = insert["path"]?.stringValue,
                let schema = insert["request"]?["$ref"]?.stringValue, path.hasPrefix("walletobjects/v1/")
            else { continue }
            collections[String(path.dropFirst("walletobjects/v1/".count))] = schema
        }
        self.schemas = schemas
        self.collections = collections
    }

    /// Google's message for the first thing in `value` that `schema` refuses, or nil when it is accepted. `path` is
    /// the JSON path Google names (`resource`, `resource.barcode.type`).
    public func problem(in value: JSONValue, schema: String, path: String = "resource") -> String? {
        guard let definition = schemas[schema] else { return "unknown schema \(schema)" }
        return problem(in: value, definition: definition, path: path)
    }

    private func problem(in value: JSONValue, definition: JSONValue, path: String) -> String? {
        if let reference = definition["$ref"]?.stringValue { return problem(in: value, schema: reference, path: path) }
        // Proto3 JSON reads null as the field's default, whatever its type.
        if value == .null { return nil }
        let type = definition["type"]?.stringValue ?? "any"
        switch type {
        case "object": return objectProblem(in: value, definition: definition, path: path)
        case "array":
            guard let items = value.arrayValue else { return invalid(path, "TYPE_LIST", value) }
            guard let itemDefinition = definition["items"] else { return nil }
            for (index, item) in items.enumerated() {
                if let problem = problem(in: item, definition: itemDefinition, path: "\(path)[\(index)]") { return problem }
            }
            return nil
        case "string": return stringProblem(in: value, definition: definition, path: path)
        case "integer":
            if let number = value.numberValue, number.intValue != nil { return nil }
            if let text = value.stringValue, Int(text) != nil { return nil }
            return invalid(path, "TYPE_INT32", value)
        case "number":
            if value.numberValue != nil { return nil }
            if let text = value.stringValue, Double(text) != nil { return nil }
            return invalid(path, "TYPE_DOUBLE", value)
        case "boolean": return value.boolValue == nil ? invalid(path, "TYPE_BOOL", value) : nil
        default: return nil
        }
    }

    private func objectProblem(in value: JSONValue, definition: JSONValue, path: String) -> String? {
        guard let object = value.objectValue else { return invalid(path, "TYPE_MESSAGE", value) }
        if let properties = definition["properties"]?.objectValue {
            for member in object {
                guard let property = properties[member.key] else {
                    return "Invalid JSON payload received. Unknown name \"\(member.key)\" at '\(path)': Cannot find field."
                }
                if let problem = problem(in: member.value, definition: property, path: "\(path).\(member.key)") { return problem }
            }
        } else if let additional = definition["additionalProperties"] {
            for member in object {
                if let problem = problem(in: member.value, definition: additional, path: "\(path).\(member.key)") { return problem }
            }
        }
        return nil
    }

    private func stringProblem(in value: JSONValue, definition: JSONValue, path: String) -> String? {
        let format = definition["format"]?.stringValue
        if format == "int64" || format == "uint64" {
            if let number = value.numberValue, number.intValue != nil { return nil }
            if let text = value.stringValue, Int64(text) != nil || UInt64(text) != nil { return nil }
            return invalid(path, "TYPE_INT64", value)
        }
        guard let text = value.stringValue else { return invalid(path, "TYPE_STRING", value) }
        if let allowed = definition["enum"]?.arrayValue, !allowed.contains(.string(text)) {
            return "Invalid value at '\(path)' (TYPE_ENUM), \"\(text)\""
        }
        return nil
    }

    private func invalid(_ path: String, _ type: String, _ value: JSONValue) -> String {
        "Invalid value at '\(path)' (\(type)), \(JSONWriter.string(value, style: .compact))"
    }
}
