import Foundation

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
}
