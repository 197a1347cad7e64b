public import Foundation
public import Passmint

/// A Google Cloud service account made at test time: a fresh 2048-bit RSA key (made by the `openssl` program), its
/// public half for the stand-in to verify with, and the JSON key file Google's console would download, pointing
/// its `token_uri` wherever the test says.
public struct TestServiceAccount: Sendable {
    public let folder: URL
    public let clientEmail: String
    public let privateKeyID: String
    /// `-----BEGIN PRIVATE KEY-----` (PKCS#8), as in Google's key files.
    public let privateKeyPEM: String
    /// `-----BEGIN PUBLIC KEY-----`.
    public let publicKeyFile: URL

    public init(folder: URL, clientEmail: String = "passmint-tests@passmint-test.iam.gserviceaccount.com") throws {
        let keyFile = folder.appendingPathComponent("service-account.key")
        publicKeyFile = folder.appendingPathComponent("service-account.pub")
        for arguments in [
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile.path],
            ["pkey", "-in", keyFile.path, "-pubout", "-out", publicKeyFile.path],
        ] {
            let result = try TestEnvironment.run("openssl", arguments)
            guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        }
        privateKeyPEM = try String(contentsOf: keyFile, encoding: .utf8)
        try FileManager.default.removeItem(at: keyFile)
        self.folder = folder
        self.clientEmail = clientEmail
        privateKeyID = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(40))
    }

    /// The key file's JSON, with `token_uri` set to `tokenURI`.
    public func keyFileJSON(tokenURI: String) -> JSONValue {
        [
            "type": "service_account",
            "project_id": "passmint-test",
            "private_key_id": .string(privateKeyID),
            "private_key": .string(privateKeyPEM),
            "client_email": .string(clientEmail),
            "client_id": "100000000000000000001",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": .string(tokenURI),
        ]
    }

    /// Writes the key file (`service-account.json` in ``folder``) and returns its URL.
    @discardableResult
    public func writeKeyFile(tokenURI: String, name: String = "service-account.json") throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(JSONWriter.data(keyFileJSON(tokenURI: tokenURI))).write(to: url)
        return url
    }
}
