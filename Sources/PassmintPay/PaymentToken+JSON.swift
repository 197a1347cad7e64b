import Foundation
public import Passmint

extension PaymentToken {
    /// Parses a token's JSON: the whole `PKPaymentToken` (`paymentData`, `paymentMethod`, `transactionIdentifier`;
    /// `paymentData` as an object or as base64 of its JSON, as iOS apps often send it), the web's `{"token": …}`, or
    /// `paymentData` alone. Errors name the JSON path and what was found there.
    public init(json bytes: [UInt8]) throws(PaymentTokenError) {
        let value: JSONValue
        do { value = try JSONParser.value(bytes) } catch {
            throw PaymentTokenError(.invalidToken, "the payment token is not JSON: \(error)")
        }
        try self.init(json: value)
    }

    /// Parses an already parsed token (see ``init(json:)-([UInt8])``).
    public init(json value: JSONValue) throws(PaymentTokenError) {
        guard let root = value.objectValue else {
            throw PaymentTokenError(.invalidToken, "the payment token is \(value.typeName), expected a JSON object")
        }
        if let wrapped = root["token"]?.objectValue, wrapped["paymentData"] != nil {
            try self.init(whole: wrapped, path: "token.")
        } else if root["paymentData"] != nil {
            try self.init(whole: root, path: "")
        } else if root["version"] != nil || root["header"] != nil {
            try self.init(paymentData: root, path: "")
        } else {
            let keys = root.keys.isEmpty ? "none" : root.keys.prefix(8).joined(separator: ", ")
            throw PaymentTokenError(
                .invalidToken,
                "the JSON is neither a PKPaymentToken (with paymentData) nor its paymentData (version, data, signature, header); its keys: \(keys)"
            )
        }
    }

    private init(whole: JSONObject, path: String) throws(PaymentTokenError) {
        let reader = TokenReader(object: whole, path: path)
        let paymentData: JSONObject
        switch whole["paymentData"] {
        case .object(let object): paymentData = object
        case .string(let text):
            guard let bytes = Data(base64Encoded: text).map(Array.init), let object = try? JSONParser.value(bytes).objectValue else {
                throw PaymentTokenError(
                    .invalidToken, "\(path)paymentData is a string but not base64 of a JSON object: send PKPaymentToken.paymentData's JSON")
            }
            paymentData = object
        case let other:
            throw PaymentTokenError(.invalidToken, "\(path)paymentData is \(other?.typeName ?? "missing"), expected an object")
        }
        try self.init(paymentData: paymentData, path: "\(path)paymentData.")
        if let method = whole["paymentMethod"] {
            guard let object = method.objectValue else {
                throw PaymentTokenError(.invalidToken, "\(path)paymentMethod is \(method.typeName), expected an object")
            }
            let methodReader = TokenReader(object: object, path: "\(path)paymentMethod.")
            paymentMethod = PaymentMethod(
                displayName: try methodReader.optionalString("displayName"), network: try methodReader.optionalString("network"),
                type: try methodReader.optionalString("type"))
        }
        transactionIdentifier = try reader.optionalString("transactionIdentifier")
    }

    private init(paymentData object: JSONObject, path: String) throws(PaymentTokenError) {
        let reader = TokenReader(object: object, path: path)
        let versionText = try reader.string("version")
        guard let version = Version(rawValue: versionText) else {
            throw PaymentTokenError(
                .invalidToken, "\(path)version is \(TokenReader.quoted(versionText)): Passmint reads EC_v1 and RSA_v1 tokens")
        }
        let data = try reader.base64("data")
        guard data.count > 16 else {
            throw PaymentTokenError(
                .invalidToken, "\(path)data holds \(data.count) bytes: encrypted payment data is longer than its 16-byte GCM tag")
        }
        let signature = try reader.base64("signature")
        guard let headerObject = object["header"]?.objectValue else {
            throw PaymentTokenError(.invalidToken, "\(path)header is \(object["header"]?.typeName ?? "missing"), expected an object")
        }
        let headerReader = TokenReader(object: headerObject, path: "\(path)header.")
        var header = Header(
            publicKeyHash: try headerReader.string("publicKeyHash"), transactionId: try headerReader.hex("transactionId"),
            applicationData: try headerReader.optionalHex("applicationData"))
        guard let hash = Data(base64Encoded: header.publicKeyHash), hash.count == 32 else {
            throw PaymentTokenError(
                .invalidToken,
                "\(path)header.publicKeyHash is \(TokenReader.quoted(header.publicKeyHash)): expected base64 of a 32-byte SHA-256")
        }
        switch version {
        case .ecV1:
            guard headerObject["wrappedKey"] == nil else {
                throw PaymentTokenError(
                    .invalidToken, "\(path)header has a wrappedKey, which only RSA_v1 tokens have, but version is EC_v1")
            }
            let key = try headerReader.base64("ephemeralPublicKey")
            guard let decoded = EphemeralKey(p256DER: key) else {
                throw PaymentTokenError(
                    .invalidToken,
                    "\(path)header.ephemeralPublicKey is not a P-256 public key (a DER SubjectPublicKeyInfo whose point is on the curve): the token was altered or truncated"
                )
            }
            header.ephemeralPublicKey = key
            header.parsedEphemeralKey = decoded
        case .rsaV1:
            guard headerObject["ephemeralPublicKey"] == nil else {
                throw PaymentTokenError(
                    .invalidToken, "\(path)header has an ephemeralPublicKey, which only EC_v1 tokens have, but version is RSA_v1")
            }
            header.wrappedKey = try headerReader.base64("wrappedKey")
        }
        self.init(version: version, data: data, signature: signature, header: header)
    }
}

/// Reads the members of one object of the token, naming its path in errors.
private struct TokenReader {
    let object: JSONObject
    let path: String

    /// A found value as an error shows it: quoted, at most 40 characters (nothing in an encrypted token is secret).
    static func quoted(_ text: String) -> String { text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\"" }

    func optionalString(_ key: String) throws(PaymentTokenError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let text = value.stringValue else {
            throw PaymentTokenError(.invalidToken, "\(path)\(key) is \(value.typeName), expected a string")
        }
        return text
    }

    func string(_ key: String) throws(PaymentTokenError) -> String {
        guard let text = try optionalString(key) else { throw PaymentTokenError(.invalidToken, "\(path)\(key) is missing") }
        return text
    }

    func base64(_ key: String) throws(PaymentTokenError) -> [UInt8] {
        let text = try string(key)
        guard let bytes = Data(base64Encoded: text), !bytes.isEmpty else {
            throw PaymentTokenError(.invalidToken, "\(path)\(key) is \(Self.quoted(text)), expected base64")
        }
        return Array(bytes)
    }

    func optionalHex(_ key: String) throws(PaymentTokenError) -> [UInt8]? {
        guard let text = try optionalString(key) else { return nil }
        guard let bytes = hexBytes(text) else {
            throw PaymentTokenError(.invalidToken, "\(path)\(key) is \(Self.quoted(text)), expected hexadecimal")
        }
        return bytes
    }

    func hex(_ key: String) throws(PaymentTokenError) -> [UInt8] {
        guard let bytes = try optionalHex(key) else { throw PaymentTokenError(.invalidToken, "\(path)\(key) is missing") }
        return bytes
    }
}
