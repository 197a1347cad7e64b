extension JSONRules {
    /// Values no JSON reader on a device can take as they are (``UnreadableValues``), and a NUL character in the serial
    /// number (the device and the web service would see different serials).
    mutating func values() {
        found += UnreadableValues.findings(in: .object(pass.members), file: "pass.json")
        if let serial = pass["serialNumber"]?.stringValue, serial.unicodeScalars.contains("\0") {
            error(
                "serial-number-nul", "serialNumber", "the serial number contains a NUL character (U+0000)",
                fix: "remove the NUL character from the serial number (check the data's serialNumber column or key)")
        }
    }
}
