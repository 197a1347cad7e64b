import FuzzDriver
import Passmint

/// `pass.strings` (UTF-8 or UTF-16, with or without a BOM) and `strings.json`.
runFuzzer { data, size in
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let entries = try? StringsFile.parse(bytes, file: "fuzz.strings") {
        // What parses must write and parse back to the same entries.
        guard (try? StringsFile.parse(StringsFile.write(entries))) == entries else { fatalError("pass.strings round trip changed it") }
    }
    _ = try? StringsFile.utf16LittleEndian(bytes, file: "fuzz.strings")
    _ = try? Translations(json: bytes, source: "strings.json")
    return 0
}
