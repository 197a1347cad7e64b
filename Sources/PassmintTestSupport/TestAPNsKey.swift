public import Foundation

/// An APNs auth key made at run time, as developer.apple.com hands them out: `AuthKey_<key id>.p8` (PKCS#8 PEM on
/// P-256, made by the `openssl` program) and its public half (PEM) for ``ProviderTokenVerifier``.
public struct TestAPNsKey: Sendable {
    public let p8: URL
    public let publicKey: URL
    public let keyIdentifier: String

    /// Makes the key in `folder`.
    public init(folder: URL, keyIdentifier: String) throws {
        p8 = folder.appendingPathComponent("AuthKey_\(keyIdentifier).p8")
        publicKey = folder.appendingPathComponent("AuthKey_\(keyIdentifier).pub.pem")
        self.keyIdentifier = keyIdentifier
        for arguments in [
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8.path],
            ["pkey", "-in", p8.path, "-pubout", "-out", publicKey.path],
        ] {
            let result = try TestEnvironment.run("openssl", arguments)
            guard result.status == 0 else {
                throw CocoaError(
                    .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments[0]) for an APNs key: \(result.stderr)"])
            }
        }
    }

    /// A verifier of the provider tokens this key signs for `teamIdentifier`.
    public func verifier(teamIdentifier: String) throws -> ProviderTokenVerifier {
        try ProviderTokenVerifier(publicKeyPEM: publicKey, keyIdentifier: keyIdentifier, teamIdentifier: teamIdentifier)
    }
}
