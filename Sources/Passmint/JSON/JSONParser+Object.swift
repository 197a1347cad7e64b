extension JSONParser {
    /// Parses a file that must hold one JSON object. Errors have `code` and name the file as `file` says (a path, or
    /// "data file x.json"); `shape` shows what the object holds, e.g. `{ "name": value, … }`.
    package static func object(_ bytes: [UInt8], file: String, shape: String, code: PassmintError.Code) throws(PassmintError) -> JSONObject
    {
        let value: JSONValue
        do {
            value = try JSONParser.value(bytes)
        } catch {
            throw PassmintError(code, "\(file) is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw PassmintError(code, "\(file) must hold one JSON object: \(shape), not \(value.typeName)")
        }
        return object
    }
}
