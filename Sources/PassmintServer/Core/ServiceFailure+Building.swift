import HTTPTypes
import Passmint

extension ServiceFailure {
    /// A pass that cannot be built: when the cause is the service's own (its certificates, signing, archives, disk)
    /// 503 `cannot-sign`, since the caller can do nothing about it; otherwise (the data, the
    /// template's rules) 422 with the library's code (`invalid-pass`, `invalid-data`, …) and a ``Problem`` for each
    /// finding, naming the data key it is about. `redacted` takes the service's paths out of the messages.
    static func building(_ error: PassmintError, _ redacted: (String) -> String) -> ServiceFailure {
        switch error.code {
        case .identityMismatch, .invalidIdentity, .signingFailed, .archiveFailed, .fileSystem:
            // The library's message may speak to whoever runs a command (`--wwdr`, `--allow-expired`): never to an API
            // caller, who then reads only what the operator must do.
            let cause = error.message.contains("--") ? "" : ": " + redacted(error.message)
            return ServiceFailure(
                .serviceUnavailable, "the service cannot sign this pass; its operator must fix its setup (\(error.code))\(cause)",
                code: "cannot-sign")
        default:
            let problems = error.diagnostics.map { finding in
                let location = finding.path.isEmpty ? "" : finding.path + ": "
                return Problem(
                    code: finding.code, field: finding.placeholder, message: redacted("\(location)\(finding.message) (fix: \(finding.fix))")
                )
            }
            let missing = error.diagnostics.filter { $0.code == "placeholder-missing" }.compactMap(\.placeholder)
            // The library's own message for a missing value speaks of columns and command-line options.
            let message =
                missing.isEmpty
                ? redacted(error.message)
                : "the data has no value for " + missing.map { "\"\($0)\"" }.joined(separator: ", ")
                    + ", which the template uses: give each in \"data\""
            return .unprocessable(message, code: "\(error.code)", problems: problems)
        }
    }
}
