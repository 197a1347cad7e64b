public import Foundation
public import Passmint

/// The payment data of a verified and decrypted token, typed, with what the token told about it. Its
/// ``description``, ``debugDescription``, mirror and ``json(reveal:)`` (unless `reveal`) mask the account number, the
/// cryptogram, the EMV data and the encrypted PIN: last four characters only.
public struct DecryptedPayment: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How the card authenticated the payment.
    public enum DataType: Sendable, Hashable {
        /// `3DSecure`: an online payment cryptogram and, for some networks, an ECI indicator.
        case threeDSecure(onlinePaymentCryptogram: String, eciIndicator: String?)
        /// `EMV`: the EMV payment structure and, when a PIN was entered, the encrypted PIN.
        case emv(emvData: String, encryptedPINData: String?)
    }

    /// The device-specific account number (DPAN). Never log it; ``masked(_:)`` it.
    public var applicationPrimaryAccountNumber: String
    /// `YYMMDD`.
    public var applicationExpirationDate: String
    /// ISO 4217 numeric currency code, e.g. `840`.
    public var currencyCode: String
    /// In the currency's minor unit.
    public var transactionAmount: Int
    public var cardholderName: String?
    public var deviceManufacturerIdentifier: String
    public var paymentData: DataType
    /// Present when the payment used a merchant token (recurring, automatic reload, deferred payments).
    public var merchantTokenIdentifier: String?
    public var merchantTokenMetadata: JSONValue?
    /// Every key of the decrypted JSON, unknown ones too, as Apple sent them: what a payment processor is given.
    public var decryptedJSON: JSONObject

    /// The token's transaction identifier (lowercase hex): refuse a token whose identifier was seen before.
    public var transactionId: String
    /// The CMS signing time.
    public var signingTime: Date
    public var version: PaymentToken.Version
    /// The `publicKeyHash` of the merchant key that decrypted it.
    public var publicKeyHash: String

    /// `3DSecure` or `EMV`.
    public var paymentDataType: String {
        switch paymentData {
        case .threeDSecure: "3DSecure"
        case .emv: "EMV"
        }
    }

    /// `text` with all but its last four characters replaced by `*` (all of it when it has four or fewer).
    public static func masked(_ text: String) -> String {
        text.count <= 4 ? String(repeating: "*", count: text.count) : String(repeating: "*", count: text.count - 4) + text.suffix(4)
    }

    /// The payment data as JSON: the decrypted keys (masked unless `reveal`) and, under `token`, the transaction
    /// identifier, signing time, version and key hash.
    public func json(reveal: Bool = false) -> JSONValue {
        var object = decryptedJSON
        if !reveal {
            object["applicationPrimaryAccountNumber"] = .string(Self.masked(applicationPrimaryAccountNumber))
            if var data = object["paymentData"]?.objectValue {
                for key in Self.secretPaymentDataKeys { if let text = data[key]?.stringValue { data[key] = .string(Self.masked(text)) } }
                object["paymentData"] = .object(data)
            }
        }
        object["token"] = [
            "transactionId": .string(transactionId), "signingTime": .string(RFC3339Date.string(from: signingTime)),
            "version": .string(version.rawValue), "publicKeyHash": .string(publicKeyHash),
        ]
        return .object(object)
    }

    static let secretPaymentDataKeys = ["onlinePaymentCryptogram", "emvData", "encryptedPINData"]

    /// One line per field, the secret values masked unless `reveal`.
    public func text(reveal: Bool = false) -> String {
        let show = { (value: String) in reveal ? value : Self.masked(value) }
        var lines = [
            "account number (DPAN): \(show(applicationPrimaryAccountNumber))",
            "expires:               \(applicationExpirationDate)",
            "amount:                \(transactionAmount) (currency \(currencyCode))",
        ]
        if let cardholderName { lines.append("cardholder:            \(cardholderName)") }
        lines.append("device manufacturer:   \(deviceManufacturerIdentifier)")
        switch paymentData {
        case .threeDSecure(let cryptogram, let eci):
            lines.append("payment data:          3DSecure, cryptogram \(show(cryptogram))\(eci.map { ", ECI \($0)" } ?? "")")
        case .emv(let emvData, let pin):
            lines.append(
                "payment data:          EMV, emvData \(show(emvData))\(pin.map { ", encrypted PIN \(show($0))" } ?? "")")
        }
        if let merchantTokenIdentifier { lines.append("merchant token:        \(merchantTokenIdentifier)") }
        lines.append("transaction:           \(transactionId)")
        lines.append("signed at:             \(RFC3339Date.string(from: signingTime))")
        lines.append("decrypted with:        \(publicKeyHash) (\(version.rawValue))")
        return lines.joined(separator: "\n")
    }

    /// ``text(reveal:)``, masked.
    public var description: String { text() }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: the masked description, never the fields.
    public var customMirror: Mirror { Mirror(self, children: ["masked": description], displayStyle: .struct) }
}
