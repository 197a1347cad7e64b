import BenchSupport
import Foundation

/// The Google bench's own keys: a service account's key and key file.
extension BenchShell {
    /// A throw-away RSA key for a Google service account, made now, and its public half (for the stand-in).
    static func serviceAccountKey(in folder: URL) throws -> (privateKey: URL, publicKey: URL) {
        let key = folder.appendingPathComponent("service-account.pem")
        let publicKey = folder.appendingPathComponent("service-account.pub.pem")
        try keyPair(
            ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], privateKey: key, publicKey: publicKey,
            purpose: "a service account key")
        return (key, publicKey)
    }

    /// The service account's key file as Google Cloud console makes it, pointing at `tokenURL`.
    static func serviceAccountFile(in folder: URL, privateKey: URL, email: String, tokenURL: String) throws -> URL {
        let json: [String: String] = [
            "type": "service_account", "project_id": "passmint-bench", "private_key_id": "bench-key-1",
            "private_key": try String(contentsOf: privateKey, encoding: .utf8), "client_email": email, "client_id": "1",
            "token_uri": tokenURL,
        ]
        let keyFile = folder.appendingPathComponent("service-account.json")
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: keyFile)
        return keyFile
    }
}
