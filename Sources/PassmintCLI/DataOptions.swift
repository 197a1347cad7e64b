import ArgumentParser
import Foundation
import Passmint
import PassmintBatch

/// Per-pass data: a JSON file and `--set` overrides.
struct DataOptions: ParsableArguments {
    @Option(help: ArgumentHelp("JSON file with one flat object: placeholder name → value.", valueName: "file.json"))
    var data: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set a placeholder: name=text gives a string, name:=json gives a typed JSON value (name:=1250, name:=true). Repeatable.",
            valueName: "name=value"))
    var assignments: [String] = []

    func load() throws -> JSONObject {
        var object = JSONObject()
        if let data {
            let bytes = try FileIO.readText(data, what: "data file")
            object = try JSONParser.object(bytes, file: "data file \(data)", shape: "{ \"name\": value, … }", code: .invalidData)
        }
        for assignment in assignments {
            let value = try ColumnMapping.value(parsing: assignment)
            object[value.placeholder] = value.value
        }
        return object
    }
}
