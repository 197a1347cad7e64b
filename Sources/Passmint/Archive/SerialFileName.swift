/// File names for passes in a batch: `<serial>.pkpass`, made safe for every file system.
///
/// Rule: letters, digits, `.`, `_` and `-` are kept; every other character becomes `_`; a leading `.` becomes `_`.
/// When anything was replaced, or the serial is longer than 100 bytes (then cut to 100), `-` and the first 8 hex
/// digits of the serial's SHA-256 are appended, so two serials never share a file.
public enum SerialFileName {
    public static func fileName(for serial: String) -> String {
        var changed = false
        var output = ""
        for scalar in serial.unicodeScalars {
            if scalar.isASCII,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "." || scalar == "_" || scalar == "-"
            {
                output.unicodeScalars.append(scalar)
            } else {
                output.append("_")
                changed = true
            }
        }
        if output.hasPrefix(".") {
            output = "_" + output.dropFirst()
            changed = true
        }
        if output.utf8.count > 100 {
            output = String(output.prefix(100))
            changed = true
        }
        if changed || output.isEmpty {
            output += "-" + String(Digest.sha256Hex(Array(serial.utf8)).prefix(8))
        }
        return output + ".pkpass"
    }
}
