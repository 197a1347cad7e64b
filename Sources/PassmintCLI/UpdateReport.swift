import Foundation
import Passmint

/// The failed rows of a `passmint update`, as CSV: row, line, serialNumber (orderIdentifier for rows naming orders),
/// reason.
enum UpdateReport {
    static func write(
        to path: String, local: [UpdateUpload.Failure], remote: [JSONValue], lines: [Int], identifier: String = "serialNumber"
    ) throws {
        var rows = local.map { ($0.row, $0.line, $0.serialNumber ?? "", $0.message) }
        for failure in remote {
            let row = failure["line"]?.numberValue?.intValue ?? 0
            let line = row > 0 && row <= lines.count ? lines[row - 1] : 0
            rows.append(
                (
                    row, line, (failure["serialNumber"] ?? failure["orderIdentifier"])?.stringValue ?? "",
                    failure["reason"]?.stringValue ?? ""
                ))
        }
        var text = "row,line,\(identifier),reason\n"
        for (row, line, serial, reason) in rows.sorted(by: { $0.0 < $1.0 }) {
            text += "\(row),\(line == 0 ? "" : String(line)),\(quoted(serial)),\(quoted(reason))\n"
        }
        try FileIO.writeAtomically(Array(text.utf8), to: path)
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
