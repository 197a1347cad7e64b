import FuzzDriver
import Passmint

/// The JSON parser: every template, data file, API body and pass.json goes through it.
runFuzzer { data, size in
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let value = try? JSONParser.value(bytes) {
        // What parses must write and parse back to the same value.
        let written = JSONWriter.data(value, style: .compact)
        guard (try? JSONParser.value(written)) == value else { fatalError("JSON round trip changed the value") }
        if let object = value.objectValue { _ = PassLinter.lintJSON(object) }
    }
    return 0
}
