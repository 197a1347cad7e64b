import ArgumentParser
import Foundation
import Passmint

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
            if let range = assignment.range(of: ":="), !assignment[..<range.lowerBound].contains("=") {
                let name = String(assignment[..<range.lowerBound])
                let text = String(assignment[range.upperBound...])
                do {
                    object[name] = try JSONParser.value(Array(text.utf8))
                } catch {
                    throw ValidationError("--set \(assignment): the value after := must be JSON (\(error)); use name=text for a string")
                }
            } else if let equals = assignment.firstIndex(of: "=") {
                object[String(assignment[..<equals])] = .string(String(assignment[assignment.index(after: equals)...]))
            } else {
                throw ValidationError("--set \(assignment): expected name=value or name:=json")
            }
        }
        return object
    }
}
