import Foundation
import NIOCore
import Passmint
import PassmintBatch

/// The rows of a changes file turned into the JSON Lines `POST /api/v1/updates` reads, one line per data row (an
/// empty line for a row that cannot be read, so that the service's line numbers are the rows' numbers).
final class UpdateUpload: @unchecked Sendable {
    struct Failure {
        var row: Int
        var line: Int
        var serialNumber: String?
        var reason: String
    }

    var input: BatchInput
    let passType: String?
    /// Rows that could not be read here, with why.
    private(set) var failures: [Failure] = []
    /// The file line each data row starts on (index: row - 1).
    private(set) var lines: [Int] = []

    init(path: String, passType: String?) throws {
        input = try BatchInput(path: path)
        self.passType = passType
    }

    /// The next chunk of the upload (about 256 KB); nil at the end.
    func nextChunk() -> ByteBuffer? {
        var bytes: [UInt8] = []
        while bytes.count < 256 * 1024, let row = input.next() {
            lines.append(row.line)
            switch row.values.flatMap(line) {
            case .success(let line): bytes += JSONWriter.data(.object(line), style: .compact)
            case .failure(let error):
                let serial = (try? row.values.get())?["serialNumber"]?.stringValue
                failures.append(Failure(row: row.number, line: row.line, serialNumber: serial, reason: error.message))
            }
            bytes.append(0x0A)
        }
        return bytes.isEmpty ? nil : ByteBuffer(bytes: bytes)
    }

    /// A row's values as a change: JSON Lines rows as they are (a passTypeIdentifier from --pass-type when they have
    /// none); CSV rows' serialNumber, passTypeIdentifier and voided columns, and every other column in `data`.
    private func line(_ values: JSONObject) -> Result<JSONObject, PassmintError> {
        if values["data"] != nil || values["voided"]?.boolValue != nil || values["images"] != nil {
            var line = values
            if line["passTypeIdentifier"] == nil, let passType { line["passTypeIdentifier"] = .string(passType) }
            return .success(line)
        }
        guard let serial = values["serialNumber"]?.stringValue, !serial.isEmpty else {
            return .failure(PassmintError(.invalidData, "the row has no serialNumber"))
        }
        guard let type = values["passTypeIdentifier"]?.stringValue ?? passType else {
            return .failure(PassmintError(.invalidData, "the row has no passTypeIdentifier: add the column or give --pass-type"))
        }
        var line: JSONObject = ["passTypeIdentifier": .string(type), "serialNumber": .string(serial)]
        var data = JSONObject()
        for member in values.members where !["serialNumber", "passTypeIdentifier", "voided"].contains(member.key) {
            data[member.key] = member.value
        }
        if !data.members.isEmpty { line["data"] = .object(data) }
        if let voided = values["voided"]?.stringValue, !voided.isEmpty {
            guard voided == "true" || voided == "false" else {
                return .failure(PassmintError(.invalidData, "voided is \"\(voided)\": give true or false"))
            }
            line["voided"] = .bool(voided == "true")
        }
        return .success(line)
    }
}
