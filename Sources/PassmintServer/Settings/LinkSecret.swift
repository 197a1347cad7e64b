/// The secret that signs passes' public links (``PassLinks``), which `serve` and `batch` read alike from
/// `PASSMINT_LINK_SECRET` (or the file `PASSMINT_LINK_SECRET_FILE` names, ``SecretFiles``): never from the command line.
package enum LinkSecret {
    package static let variable = "PASSMINT_LINK_SECRET"

    /// The secret in `environment`, nil when none is given; one shorter than 32 characters is refused.
    package static func read(_ environment: [String: String]) throws(ConfigurationError) -> String? {
        guard let secret = environment[variable] else { return nil }
        guard secret.count >= 32 else {
            throw ConfigurationError(
                "the link secret in \(variable) must have at least 32 characters (e.g. the output of openssl rand -base64 32)")
        }
        return secret
    }
}
