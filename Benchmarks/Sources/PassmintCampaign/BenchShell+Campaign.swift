import BenchSupport
import Foundation

/// The campaign's own keys: the stand-in's TLS identity and an APNs auth key.
extension BenchShell {
    /// Makes a throw-away key and a self-signed certificate for `localhost` (the stand-in's TLS identity).
    static func selfSignedLocalhost(key: URL, certificate: URL) throws {
        let result = try run(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", certificate.path, "-days", "2", "-subj",
                "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        guard result.status == 0 else { throw CampaignError("openssl could not make the stand-in's certificate: \(result.stderr)") }
    }

    /// Makes an APNs-style auth key (`AuthKey_<id>.p8`, P-256) and its public half (PEM) for provider tokens.
    static func authKey(in folder: URL, keyIdentifier: String) throws -> (p8: URL, publicKey: URL) {
        let p8 = folder.appendingPathComponent("AuthKey_\(keyIdentifier).p8")
        let publicKey = folder.appendingPathComponent("AuthKey_\(keyIdentifier).pub.pem")
        try keyPair(
            ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], privateKey: p8, publicKey: publicKey, purpose: "an APNs key")
        return (p8, publicKey)
    }
}

struct CampaignError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
