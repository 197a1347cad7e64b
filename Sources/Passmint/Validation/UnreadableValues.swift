/// Values no JSON reader on a device can take as they are, in any JSON file Wallet reads (`pass.json`, `order.json`):
/// a number a double cannot hold (`1e999999` is valid JSON syntax, but Wallet reads it as infinity or not at all), and
/// a NUL character in a member name (C strings end there, so the device and the web service would see different
/// names).
enum UnreadableValues {
    /// The findings in `value`, the whole of `file`: `number-out-of-range` and `key-nul` errors, each at its JSON path.
    static func findings(in value: JSONValue, file: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        walk(value, file: file, path: { "" }, into: &found)
        return found
    }

    /// `path` makes the value's JSON path, only for a finding.
    private static func walk(_ value: JSONValue, file: String, path: () -> String, into found: inout [Diagnostic]) {
        switch value {
        case .number(let number) where !number.doubleValue.isFinite:
            let path = path()
            found.append(
                Diagnostic(
                    .error, "number-out-of-range", file: file, path: path.isEmpty ? file : path,
                    "\(shortened(number.text)) is out of range: a double cannot hold it",
                    fix: "write a number between -1.7976931348623157e308 and 1.7976931348623157e308, or a string if the text matters"))
        case .array(let elements):
            for (index, element) in elements.enumerated() { walk(element, file: file, path: { "\(path())[\(index)]" }, into: &found) }
        case .object(let object):
            for member in object {
                func memberPath() -> String {
                    let parent = path()
                    return parent.isEmpty ? member.key : "\(parent).\(member.key)"
                }
                if member.key.utf8.contains(0) {
                    found.append(
                        Diagnostic(
                            .error, "key-nul", file: file, path: printable(memberPath()),
                            "the key \"\(printable(member.key))\" contains a NUL character (U+0000)",
                            fix: "remove the NUL character from the key"))
                }
                walk(member.value, file: file, path: memberPath, into: &found)
            }
        default: break
        }
    }

    /// `text` with NUL shown as `\0`, so a message about it can be read and copied.
    static func printable(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar == "\0" { shown += "\\0" } else { shown.unicodeScalars.append(scalar) }
        }
        return shown
    }

    /// A long literal cut to its first 40 characters.
    static func shortened(_ text: String) -> String { text.count > 40 ? String(text.prefix(40)) + "…" : text }
}
