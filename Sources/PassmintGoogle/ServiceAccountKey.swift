public import Foundation
package import Passmint

/// A Google Cloud service account's JSON key file (IAM → Service accounts → Keys → Add key → JSON): the account's
/// e-mail, its RSA private key and the token endpoint it authenticates at.
public struct ServiceAccountKey: Sendable {
    public let clientEmail: String
    public let privateKeyID: String?
    public let tokenURI: URL
    package let signer: RS256Signer

    /// Google's token endpoint, used when the key file names none.
    public static let defaultTokenURI = URL(string: "https://oauth2.googleapis.com/token")!

    /// Reads the key file at `path`.
    public init(contentsOf path: String) throws(GoogleWalletError) {
        let bytes: [UInt8]
        do throws(PassmintError) {
            bytes = try FileIO.read(path, what: "service account key file")
        } catch {
            throw GoogleWalletError(.invalidServiceAccount, error.message)
        }
        try self.init(json: bytes, source: path)
    }

    /// Reads a key file's bytes; `source` names it in errors.
    public init(json bytes: [UInt8], source: String) throws(GoogleWalletError) {
        let hint = "download a JSON key in Google Cloud console → IAM & Admin → Service accounts → Keys → Add key"
        guard let value = try? JSONParser.value(bytes), let object = value.objectValue else {
            throw GoogleWalletError(.invalidServiceAccount, "\(source) is not JSON: \(hint)")
        }
        guard object["type"]?.stringValue == "service_account" else {
            let found = object["type"].map { JSONWriter.string($0, style: .compact) } ?? "nothing"
            throw GoogleWalletError(.invalidServiceAccount, "\(source): \"type\" is \(found), not \"service_account\": \(hint)")
        }
        func text(_ key: String) throws(GoogleWalletError) -> String {
            guard let value = object[key]?.stringValue, !value.isEmpty else {
                throw GoogleWalletError(.invalidServiceAccount, "\(source) has no \"\(key)\" (a string): \(hint)")
            }
            return value
        }
        clientEmail = try text("client_email")
        let pem = try text("private_key")
        privateKeyID = object["private_key_id"]?.stringValue
        if let given = object["token_uri"]?.stringValue {
            guard let url = URL(string: given), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw GoogleWalletError(.invalidServiceAccount, "\(source): \"token_uri\" \(given) is not an http(s) URL")
            }
            tokenURI = url
        } else {
            tokenURI = Self.defaultTokenURI
        }
        do throws(PassmintError) {
            let key = try PrivateKey(pemBytes: Array(pem.utf8), passphrase: nil, source: "\(source) \"private_key\"")
            signer = try RS256Signer(key: key, source: "\(source) \"private_key\"")
        } catch {
            throw GoogleWalletError(.invalidServiceAccount, error.message)
        }
    }
}
