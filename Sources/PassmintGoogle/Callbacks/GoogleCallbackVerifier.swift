import Crypto
public import Foundation
import Passmint

/// Verifies a save/delete callback as Google's Tink `PaymentMethodTokenRecipient` does for protocol `ECv2SigningOnly`,
/// sender `GooglePayPasses` and the issuer id as recipient: the intermediate signing key is signed (ECDSA P-256,
/// SHA-256, DER) by a root key that has not expired, over the length-prefixed sender, protocol version and signed key;
/// the intermediate key has not expired; the message is signed by the intermediate key over the length-prefixed
/// sender, recipient, protocol version and signed message; and the message has not expired (`expTimeMillis`).
/// Each length prefix is 4 bytes, little-endian.
public struct GoogleCallbackVerifier: Sendable {
    public static let protocolVersion = "ECv2SigningOnly"
    public static let senderID = "GooglePayPasses"
    /// The most signatures of the intermediate key read: Google sends one (two while it rotates its root keys). More is
    /// no callback of Google's, and each costs an ECDSA verification per root key to anyone who can post.
    public static let maximumSignatures = 3

    public let keys: GoogleSigningKeys
    /// The issuer id: the callback's recipient.
    public let recipientID: String

    public init(keys: GoogleSigningKeys, recipientID: String) {
        self.keys = keys
        self.recipientID = recipientID
    }

    /// The callback in `body`, verified at `now`; throws ``GoogleWalletError/Code/malformedCallback`` or
    /// ``GoogleWalletError/Code/unverifiedCallback``.
    public func verify(_ body: [UInt8], now: Date) throws(GoogleWalletError) -> GoogleCallback {
        guard let message = (try? JSONParser.value(body))?.objectValue else { throw .malformed("the body is not a JSON object") }
        func text(_ object: JSONObject, _ key: String, _ path: String) throws(GoogleWalletError) -> String {
            guard let value = object[key]?.stringValue else { throw .malformed("\(path)\(key) is missing or not a string") }
            return value
        }
        let version = try text(message, "protocolVersion", "")
        guard version == Self.protocolVersion else {
            throw .unverified("protocolVersion is \"\(version)\", not \"\(Self.protocolVersion)\"")
        }
        let signature = try Self.signature(try text(message, "signature", ""), "signature")
        let signedMessage = try text(message, "signedMessage", "")
        guard let intermediate = message["intermediateSigningKey"]?.objectValue else {
            throw .malformed("intermediateSigningKey is missing or not an object")
        }
        let signedKey = try text(intermediate, "signedKey", "intermediateSigningKey.")
        guard let signatures = intermediate["signatures"]?.arrayValue, !signatures.isEmpty else {
            throw .malformed("intermediateSigningKey.signatures is missing or empty")
        }
        guard signatures.count <= Self.maximumSignatures else {
            throw .malformed(
                "intermediateSigningKey.signatures holds \(signatures.count) signatures; Google sends one, and at most "
                    + "\(Self.maximumSignatures) are read")
        }
        let key = try verifyIntermediate(signedKey: signedKey, signatures: signatures, now: now)
        let signed = Self.lengthPrefixed([Self.senderID, recipientID, Self.protocolVersion, signedMessage])
        guard key.isValidSignature(signature, for: signed) else {
            throw .unverified("the message's signature does not verify for recipient \(recipientID) with the intermediate signing key")
        }
        let callback = try Self.callback(signedMessage)
        guard callback.expiration > now else {
            throw .unverified("the message expired at \(callback.expiration.formatted(Date.ISO8601FormatStyle()))")
        }
        return callback
    }

    /// The intermediate signing key, once one of its signatures verifies with a root key that has not expired and it
    /// has not expired itself.
    func verifyIntermediate(signedKey: String, signatures: [JSONValue], now: Date) throws(GoogleWalletError)
        -> P256.Signing.PublicKey
    {
        let signed = Self.lengthPrefixed([Self.senderID, Self.protocolVersion, signedKey])
        let roots = keys.keys.filter { ($0.expiration ?? .distantFuture) > now }
        var verified = false
        for (index, value) in signatures.enumerated() {
            guard let text = value.stringValue else { throw .malformed("intermediateSigningKey.signatures[\(index)] is not a string") }
            let signature = try Self.signature(text, "intermediateSigningKey.signatures[\(index)]")
            if roots.contains(where: { $0.publicKey.isValidSignature(signature, for: signed) }) {
                verified = true
                break
            }
        }
        guard verified else { throw .unverified("no signature of the intermediate signing key verifies with a current Google root key") }
        guard let object = (try? JSONParser.value(Array(signedKey.utf8)))?.objectValue else {
            throw .malformed("intermediateSigningKey.signedKey is not a JSON object")
        }
        guard let value = object["keyValue"]?.stringValue, let der = Data(base64Encoded: value),
            let key = try? P256.Signing.PublicKey(derRepresentation: der)
        else { throw .malformed("intermediateSigningKey.signedKey.keyValue is not a base64 P-256 public key") }
        guard let expiration = object["keyExpiration"].flatMap(Self.milliseconds) else {
            throw .malformed("intermediateSigningKey.signedKey.keyExpiration is missing or not milliseconds")
        }
        guard expiration > now else {
            throw .unverified("the intermediate signing key expired at \(expiration.formatted(Date.ISO8601FormatStyle()))")
        }
        return key
    }

    /// The fields of the signed message.
    static func callback(_ signedMessage: String) throws(GoogleWalletError) -> GoogleCallback {
        guard let object = (try? JSONParser.value(Array(signedMessage.utf8)))?.objectValue else {
            throw .malformed("signedMessage is not a JSON object")
        }
        func text(_ key: String) throws(GoogleWalletError) -> String {
            guard let value = object[key]?.stringValue, !value.isEmpty else { throw .malformed("signedMessage.\(key) is missing or empty") }
            return value
        }
        let eventType = try text("eventType")
        guard let event = GoogleCallback.Event(rawValue: eventType) else {
            throw .malformed("signedMessage.eventType \"\(eventType)\" is neither \"save\" nor \"del\"")
        }
        guard let expiration = object["expTimeMillis"].flatMap(milliseconds) else {
            throw .malformed("signedMessage.expTimeMillis is missing or not milliseconds")
        }
        return GoogleCallback(
            classID: try text("classId"), objectID: try text("objectId"), event: event, nonce: try text("nonce"), expiration: expiration)
    }

    /// Milliseconds since 1970, as a number or a string of digits.
    static func milliseconds(_ value: JSONValue) -> Date? {
        guard let milliseconds = value.numberValue.flatMap({ Int64($0.text) }) ?? value.stringValue.flatMap({ Int64($0) }) else {
            return nil
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func signature(_ base64: String, _ path: String) throws(GoogleWalletError) -> P256.Signing.ECDSASignature {
        guard let der = Data(base64Encoded: base64), let signature = try? P256.Signing.ECDSASignature(derRepresentation: der) else {
            throw .malformed("\(path) is not a base64 DER ECDSA signature")
        }
        return signature
    }

    /// Each part's UTF-8 bytes after their count as 4 bytes, little-endian.
    public static func lengthPrefixed(_ parts: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in parts {
            let utf8 = Array(part.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: utf8)
        }
        return bytes
    }
}
