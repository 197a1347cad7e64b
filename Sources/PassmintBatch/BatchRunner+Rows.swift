import Foundation
import Passmint

/// The checks a batch makes in row order, before a row goes to the workers: the output folder, and each row's values
/// (mapped and converted, ``SpreadsheetPlan``), serial (present, unique, this shard's) and token.
extension BatchRunner {
    func prepareFolder() throws(PassmintError) {
        do {
            try FileManager.default.createDirectory(atPath: options.outputFolder, withIntermediateDirectories: true)
        } catch {
            throw PassmintError(.fileSystem, "cannot create the output folder \(options.outputFolder): \(error.localizedDescription)")
        }
        // Temporary files of a run that was killed mid-write.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: options.outputFolder)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") && name.contains(".pkpass.") {
            try? FileManager.default.removeItem(atPath: options.outputFolder + "/" + name)
        }
    }

    enum Prepared {
        case job(Job)
        case failed(BatchResult)
        /// The row belongs to another shard (``BatchOptions/shard``).
        case otherShard
    }

    func prepare(_ row: BatchRow, plan: SpreadsheetPlan, serials: inout [String: Int], needsToken: Bool) -> Prepared {
        let place = "row \(row.number) (line \(row.line))"
        let shard = options.shard
        let values: JSONObject
        switch row.values {
        case .failure(let error):
            if let shard, !shard.contains(row: row.number) { return .otherShard }
            return .failed(.failure(row: row.number, "\(place): \(error.message)"))
        case .success(let object): values = plan.renamed(object)
        }
        if let problem = Self.controlCharacter(in: values) {
            if let shard, !shard.contains(row: row.number) { return .otherShard }
            return .failed(.failure(row: row.number, "\(place): \(problem)"))
        }
        var serial = ""
        switch values["serialNumber"] {
        case .string(let text): serial = text.trimmingSpaces
        case .number(let number): serial = number.text
        default: break
        }
        if let shard, serial.isEmpty ? !shard.contains(row: row.number) : !shard.contains(serial: serial) { return .otherShard }
        guard !serial.isEmpty else {
            let column = plan.column(of: "serialNumber")
            return .failed(.failure(row: row.number, "\(place): no serial number (the \(column) value is missing or empty)"))
        }
        if let first = serials[serial] {
            return .failed(
                .failure(row: row.number, serial: serial, "\(place): duplicate serial number \(serial) (first used on row \(first))"))
        }
        serials[serial] = row.number
        let converted: JSONObject
        switch plan.converted(values, row: row.number) {
        case .success(let data): converted = data
        case .failure(let problem): return .failed(.failure(row: row.number, serial: serial, problem.message, reason: problem.reason))
        }
        var token = values["authenticationToken"]?.stringValue ?? ""
        if token.isEmpty && needsToken { token = AuthenticationToken.make() }
        return .job(
            Job(
                row: row.number, line: row.line, values: converted, serial: serial, token: token,
                fileName: SerialFileName.fileName(for: serial)))
    }

    /// A value holding a control character (NUL, ESC, … — tab and line breaks are text) would be signed into
    /// `pass.json` and shown by no device: the row is refused, naming the column and where the character is, and the
    /// character is never copied into the report. Nil when every string value is clean.
    static func controlCharacter(in values: JSONObject) -> String? {
        for member in values {
            guard case .string(let text) = member.value else { continue }
            for (offset, scalar) in text.unicodeScalars.enumerated() where isForbiddenControl(scalar) {
                let code = "U+" + String(format: "%04X", scalar.value)
                return "column \(shown(member.key)) holds the control character \(code) at character \(offset + 1) "
                    + "of its value: remove it (a value may hold tabs and line breaks, no other control character)"
            }
        }
        return nil
    }

    /// A column name as a message shows it: its control characters as `\u{1B}`.
    private static func shown(_ name: String) -> String {
        var output = ""
        for scalar in name.unicodeScalars {
            if isForbiddenControl(scalar) || scalar.value < 0x20 {
                output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00..<0x20, 0x7F: true
        default: false
        }
    }
}

/// A row's pass: the template filled with the row's data, stamped with its serial, its token and the batch's web
/// service URL. Issuing, lazy issuing and `--resume` all build it here.
extension BatchRunner {
    func stamp(_ job: Job, token: String) -> PassStamp {
        PassStamp(serialNumber: job.serial, authenticationToken: token, webServiceURL: options.webServiceURL)
    }

    func input(_ job: Job, data: JSONObject, images: PassImages, token: String) -> PassInput {
        PassInput(template: template, data: data, images: images, stamp: stamp(job, token: token))
    }
}
