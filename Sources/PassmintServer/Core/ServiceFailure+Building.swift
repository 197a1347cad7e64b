import HTTPTypes
import Passmint

extension ServiceFailure {
    /// A pass that cannot be built: when the cause is the service's own (its certificates, signing, archives, disk)
    /// 503 with a message for its operator, since the caller can do nothing about it; otherwise (the data, the
    /// template's rules) 422. `redacted` takes the service's paths out of the message.
    static func building(_ error: PassmintError, _ redacted: (String) -> String) -> ServiceFailure {
        switch error.code {
        case .identityMismatch, .invalidIdentity, .signingFailed, .archiveFailed, .fileSystem:
            ServiceFailure(
                .serviceUnavailable,
                "the service cannot sign this pass; its operator must fix its setup (\(error.code)): \(redacted(error.message))")
        default:
            .unprocessable(redacted(error.message))
        }
    }
}
