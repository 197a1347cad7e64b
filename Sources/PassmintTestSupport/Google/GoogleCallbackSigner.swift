public import Crypto
public import Foundation
import Passmint

/// Google's side of a save/delete callback, for tests: a root signing key pair and an intermediate key pair, both
/// made at test time, that sign a callback exactly as Google's `ECv2SigningOnly` protocol does (sender
/// `GooglePayPasses`): the root key signs the length-prefixed sender, protocol version and signed key; the
/// intermediate key signs the length-prefixed sender, recipient (the issuer id), protocol version and signed message.
/// Each length is 4 bytes, little-endian; signatures are ECDSA P-256 with SHA-256, DER, base64.
public struct GoogleCallbackSigner: Sendable {
    public static let senderID = "GooglePayPasses"
    public static let protocolVersion = "ECv2SigningOnly"

    /// What a callback says.
    public struct Message: Sendable {
        public var classID: String
        public var objectID: String
        /// `save` or `del`.
        public var eventType: String
        public var nonce: String
        public var expiration: Date

        public init(classID: String, objectID: String, eventType: String, nonce: String, expiration: Date) {
            self.classID = classID
            self.objectID = objectID
            self.eventType = eventType
            self.nonce = nonce
            self.expiration = expiration
        }
    }

    public let root = P256.Signing.PrivateKey()
    public let intermediate = P256.Signing.PrivateKey()
    /// When the intermediate key expires (its signed `keyExpiration`).
    public var intermediateExpiration: Date

    public init(intermediateExpiration: Date) { self.intermediateExpiration = intermediateExpiration }

    /// The root public key in the format Google publishes its keys (https://pay.google.com/gp/m/issuer/keys).
    public func keysJSON(rootExpiration: Date? = nil) -> String {
        var key: JSONObject = [
            "keyValue": .string(root.publicKey.derRepresentation.base64EncodedString()), "protocolVersion": .string(Self.protocolVersion),
        ]
        if let rootExpiration { key["keyExpiration"] = .string(String(Self.milliseconds(rootExpiration))) }
        return JSONWriter.string(["keys": .array([.object(key)])], style: .pretty)
    }

    /// Writes ``keysJSON(rootExpiration:)`` to `file`.
    public func writeKeys(to file: URL) throws { try Data(keysJSON().utf8).write(to: file) }

    /// The callback's body, signed for `recipientID`; `tamper` changes the signed message after it was signed.
    public func body(_ message: Message, recipientID: String, tamper: Bool = false) throws -> String {
        let signedKey = JSONWriter.string(
            [
                "keyValue": .string(intermediate.publicKey.derRepresentation.base64EncodedString()),
                "keyExpiration": .string(String(Self.milliseconds(intermediateExpiration))),
            ], style: .compact)
        let keySignature = try root.signature(for: Self.lengthPrefixed([Self.senderID, Self.protocolVersion, signedKey]))
        var signedMessage = JSONWriter.string(
            [
                "classId": .string(message.classID), "objectId": .string(message.objectID),
                "expTimeMillis": .number(JSONNumber(Int(Self.milliseconds(message.expiration)))), "eventType": .string(message.eventType),
                "nonce": .string(message.nonce),
            ], style: .compact)
        let signature = try intermediate.signature(
            for: Self.lengthPrefixed([Self.senderID, recipientID, Self.protocolVersion, signedMessage]))
        if tamper { signedMessage = signedMessage.replacingOccurrences(of: "\"\(message.eventType)\"", with: "\"del\"") }
        return JSONWriter.string(
            [
                "signature": .string(signature.derRepresentation.base64EncodedString()),
                "intermediateSigningKey": .object([
                    "signedKey": .string(signedKey), "signatures": .array([.string(keySignature.derRepresentation.base64EncodedString())]),
                ]),
                "protocolVersion": .string(Self.protocolVersion), "signedMessage": .string(signedMessage),
            ], style: .compact)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func lengthPrefixed(_ parts: [String]) -> [UInt8] {
        parts.flatMap { part -> [UInt8] in
            let count = UInt32(part.utf8.count)
            return [UInt8(count & 0xff), UInt8((count >> 8) & 0xff), UInt8((count >> 16) & 0xff), UInt8(count >> 24)] + Array(part.utf8)
        }
    }
}
