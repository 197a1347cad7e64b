import Passmint

/// Lazy issuing (`passmint batch --register … --no-files`): rows are checked as for a pass and recorded in chunks,
/// and nothing is signed.
extension BatchRunner {
    /// Lazy issuing: renders and checks the row's pass exactly as ``process(_:images:kept:)`` would before signing
    /// it, and hands it on to be recorded.
    func recordOnly(_ job: Job, data: JSONObject, images: PassImages) -> BatchResult {
        do {
            let passTypeIdentifier = try builder.check(input(job, data: data, images: images, token: job.token))
            var result = BatchResult(
                row: job.row, serialNumber: job.serial, status: .recorded, file: "", sha256: "", authenticationToken: job.token,
                error: "", bytes: 0)
            result.issued = IssuedPass(
                passTypeIdentifier: passTypeIdentifier, serialNumber: job.serial, authenticationToken: job.token,
                data: stamp(job, token: job.token).stamped(data: data), images: images)
            return result
        } catch {
            return .failure(row: job.row, serial: job.serial, "row \(job.row) (line \(job.line)): \(error.message)")
        }
    }

    /// Records a chunk of checked rows with ``registerMany`` (one transaction): a row the store refuses fails, and
    /// when the store fails as a whole every row of the chunk fails with its error (run again with the same data to
    /// record them: rows recorded already are kept).
    func recordChunk(_ results: inout [BatchResult]) async {
        guard let registerMany else { return }
        let indexes = results.indices.filter { results[$0].status == .recorded && results[$0].issued != nil }
        guard !indexes.isEmpty else { return }
        var outcomes: [RecordOutcome]
        do {
            outcomes = try await registerMany(indexes.map { results[$0].issued! })
        } catch {
            outcomes = Array(repeating: .failed("not recorded in the store: \(error)"), count: indexes.count)
        }
        for (index, outcome) in zip(indexes, outcomes) {
            switch outcome {
            case .recorded: break
            case .existing(let token):
                results[index].status = .existing
                results[index].authenticationToken = token
            case .failed(let reason):
                let result = results[index]
                results[index] = .failure(row: result.row, serial: result.serialNumber, "row \(result.row): \(reason)")
            }
        }
    }
}
