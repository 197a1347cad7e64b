extension JSONRules {
    /// Values no JSON reader on a device can take as they are: a number a double cannot hold (`1e999999` is valid JSON
    /// syntax, but Wallet reads it as infinity or not at all), and a NUL character in a member name or in the serial
    /// number (C strings end there, so the device and the web service would see different names).
    mutating func values() {
        walk(.object(pass.members), path: { "" })
        if let serial = pass["serialNumber"]?.stringValue, serial.unicodeScalars.contains("\0") {
            error(
                "serial-number-nul", "serialNumber", "the serial number contains a NUL character (U+0000)",
                fix: "remove the NUL character from the serial number (check the data's serialNumber column or key)")
        }
    }

    /// `path` makes the value's JSON path, only for a finding.
    private mutating func walk(_ value: JSONValue, path: () -> String) {
        switch value {
        case .number(let number) where !number.doubleValue.isFinite:
            let path = path()
            error(
                "number-out-of-range", path.isEmpty ? "pass.json" : path,
                "\(Self.shortened(number.text)) is out of range: a double cannot hold it",
                fix: "write a number between -1.7976931348623157e308 and 1.7976931348623157e308, or a string if the text matters")
        case .array(let elements):
            for (index, element) in elements.enumerated() { walk(element, path: { "\(path())[\(index)]" }) }
        case .object(let object):
            for member in object {
                func memberPath() -> String {
                    let parent = path()
                    return parent.isEmpty ? member.key : "\(parent).\(member.key)"
                }
                if member.key.utf8.contains(0) {
                    error(
                        "key-nul", Self.printable(memberPath()),
                        "the key \"\(Self.printable(member.key))\" contains a NUL character (U+0000)",
                        fix: "remove the NUL character from the key")
                }
                walk(member.value, path: memberPath)
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
