import Foundation
import Passmint

/// The checks a batch makes in row order, before a row goes to the workers: the serial column, the output folder, and
/// each row's serial (present, unique, this shard's) and token.
extension BatchRunner {
    /// A CSV file without the serial column would fail every row: say so once, before anything is written.
    func checkColumns(of input: BatchInput) throws(PassmintError) {
        guard let columns = input.columns, !columns.contains(options.serialColumn) else { return }
        let similar = columns.first { $0.lowercased() == options.serialColumn.lowercased() }
        let shown = columns.count > 12 ? columns.prefix(12).joined(separator: ", ") + ", …" : columns.joined(separator: ", ")
        throw PassmintError(
            .invalidData,
            """
            data file \(input.path) has no column named \(options.serialColumn) (its columns: \(shown)): \
            \(similar.map { "did you mean \($0)? " } ?? "")name the column that holds the serial numbers with --serial-column, or add \
            a \(options.serialColumn) column
            """)
    }

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

    func prepare(_ row: BatchRow, serials: inout [String: Int], needsToken: Bool) -> Prepared {
        let place = "row \(row.number) (line \(row.line))"
        let shard = options.shard
        let values: JSONObject
        switch row.values {
        case .failure(let error):
            if let shard, !shard.contains(row: row.number) { return .otherShard }
            return .failed(.failure(row: row.number, "\(place): \(error.message)"))
        case .success(let object): values = object
        }
        var serial = ""
        switch values[options.serialColumn] {
        case .string(let text): serial = text.trimmingSpaces
        case .number(let number): serial = number.text
        default: break
        }
        if let shard, serial.isEmpty ? !shard.contains(row: row.number) : !shard.contains(serial: serial) { return .otherShard }
        guard !serial.isEmpty else {
            return .failed(.failure(row: row.number, "\(place): no serial number (the \(options.serialColumn) value is missing or empty)"))
        }
        if let first = serials[serial] {
            return .failed(
                .failure(row: row.number, serial: serial, "\(place): duplicate serial number \(serial) (first used on row \(first))"))
        }
        serials[serial] = row.number
        var token = values["authenticationToken"]?.stringValue ?? ""
        if token.isEmpty && needsToken { token = AuthenticationToken.make() }
        return .job(
            Job(
                row: row.number, line: row.line, values: values, serial: serial, token: token,
                fileName: SerialFileName.fileName(for: serial)))
    }
}
