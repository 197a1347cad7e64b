import Passmint

/// `--resume`: a pass of an earlier run is kept when it verifies and its row has not changed since; a changed row's
/// pass is issued again, with the earlier pass's authentication token.
extension BatchRunner {
    struct EarlierPass {
        var result: BatchResult
        var passTypeIdentifier: String
        /// The pass's `pass.json`; nil for a pass kept in an archive (not compared).
        var passJSON: JSONValue?
    }

    /// The earlier run's pass of this row: a file in the output folder, or an entry of the archive being resumed.
    func earlierPass(at path: String, job: Job, kept: [String: BatchPassSink.KeptPass]) -> EarlierPass? {
        if options.output == .folder { return existingPass(at: path, job: job) }
        return kept[job.fileName].flatMap { keptPass($0, job: job) }
    }

    /// True when the row's data makes another `pass.json` than the earlier pass's (`input` is stamped with the earlier
    /// token, so only the row's values count).
    func changed(_ passJSON: JSONValue?, input: PassInput) -> Bool {
        guard let passJSON else { return false }
        guard let prepared = try? builder.prepare(input), let rendered = try? JSONParser.value(prepared.passJSON) else { return true }
        return rendered != passJSON
    }
}
