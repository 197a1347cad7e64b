import Crypto
public import Foundation
import Passmint

/// Google's root signing keys for callbacks, in the format Google publishes them at ``publishedURL``:
/// `{"keys": [{"keyValue": base64 DER SubjectPublicKeyInfo, "protocolVersion": "ECv2SigningOnly", "keyExpiration": "ms"}]}`.
/// Keys of another protocol version are skipped; a key without `keyExpiration` never expires.
public struct GoogleSigningKeys: Sendable {
    /// One root key.
    public struct Key: Sendable {
        let publicKey: P256.Signing.PublicKey
        /// Nil: it does not expire.
        public let expiration: Date?
    }

    /// Where Google publishes the keys (the operator downloads them from here; the service never does).
    public static let publishedURL = URL(string: "https://pay.google.com/gp/m/issuer/keys")!

    public let keys: [Key]

    /// Reads the keys file at `path`.
    public init(contentsOf path: String) throws(GoogleWalletError) {
        let bytes: [UInt8]
        do throws(PassmintError) {
            bytes = try FileIO.read(path, what: "Google callback keys file")
        } catch {
            throw GoogleWalletError(.invalidCallbackKeys, error.message)
        }
        try self.init(json: bytes, source: path)
    }

    /// Reads a keys file's bytes; `source` names it in errors.
    public init(json bytes: [UInt8], source: String) throws(GoogleWalletError) {
        let hint = "download it again from \(Self.publishedURL.absoluteString)"
        guard let object = (try? JSONParser.value(bytes))?.objectValue, let entries = object["keys"]?.arrayValue else {
            throw GoogleWalletError(.invalidCallbackKeys, "\(source) is not JSON with a \"keys\" array: \(hint)")
        }
        var keys: [Key] = []
        for (index, entry) in entries.enumerated() where entry["protocolVersion"]?.stringValue == GoogleCallbackVerifier.protocolVersion {
            let path = "\(source): keys[\(index)]"
            guard let value = entry["keyValue"]?.stringValue, let der = Data(base64Encoded: value),
                let key = try? P256.Signing.PublicKey(derRepresentation: der)
            else {
                throw GoogleWalletError(.invalidCallbackKeys, "\(path).keyValue is not a base64 P-256 public key: \(hint)")
            }
            var expiration: Date?
            if let text = entry["keyExpiration"]?.stringValue {
                guard let milliseconds = Int64(text) else {
                    throw GoogleWalletError(.invalidCallbackKeys, "\(path).keyExpiration \"\(text)\" is not milliseconds: \(hint)")
                }
                expiration = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            }
            keys.append(Key(publicKey: key, expiration: expiration))
        }
        guard !keys.isEmpty else {
            throw GoogleWalletError(
                .invalidCallbackKeys, "\(source) holds no key of protocol version \(GoogleCallbackVerifier.protocolVersion): \(hint)")
        }
        self.keys = keys
    }
}
