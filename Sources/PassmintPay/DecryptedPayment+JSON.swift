import Foundation
import Passmint

extension DecryptedPayment {
    /// Reads the decrypted JSON. Errors name the key and the type found, never a value.
    init(decrypted bytes: [UInt8], token: PaymentToken, signingTime: Date, key: MerchantKey) throws(PaymentTokenError) {
        guard let object = (try? JSONParser.value(bytes))?.objectValue else {
            throw PaymentTokenError(
                .invalidPaymentData,
                "the decrypted payment data is not a JSON object (\(bytes.count) bytes): the key decrypts it but it is not Apple's format")
        }
        func string(_ key: String, in object: JSONObject, path: String = "") throws(PaymentTokenError) -> String {
            guard let value = object[key] else {
                throw PaymentTokenError(.invalidPaymentData, "the decrypted payment data has no \(path)\(key)")
            }
            guard let text = value.stringValue else {
                throw PaymentTokenError(
                    .invalidPaymentData, "the decrypted payment data's \(path)\(key) is \(value.typeName), expected a string")
            }
            return text
        }
        func optional(_ key: String, in object: JSONObject, path: String = "") throws(PaymentTokenError) -> String? {
            guard let value = object[key], value != .null else { return nil }
            return try string(key, in: object, path: path)
        }
        let amount = object["transactionAmount"]
        guard let transactionAmount = amount?.numberValue?.intValue else {
            throw PaymentTokenError(
                .invalidPaymentData,
                "the decrypted payment data's transactionAmount is \(amount?.typeName ?? "missing"), expected a whole number (minor units)")
        }
        let type = try string("paymentDataType", in: object)
        guard let details = object["paymentData"]?.objectValue else {
            throw PaymentTokenError(
                .invalidPaymentData,
                "the decrypted payment data's paymentData is \(object["paymentData"]?.typeName ?? "missing"), expected an object")
        }
        let paymentData: DataType
        switch type {
        case "3DSecure":
            paymentData = .threeDSecure(
                onlinePaymentCryptogram: try string("onlinePaymentCryptogram", in: details, path: "paymentData."),
                eciIndicator: try optional("eciIndicator", in: details, path: "paymentData."))
        case "EMV":
            paymentData = .emv(
                emvData: try string("emvData", in: details, path: "paymentData."),
                encryptedPINData: try optional("encryptedPINData", in: details, path: "paymentData."))
        default:
            throw PaymentTokenError(
                .invalidPaymentData, "the decrypted payment data's paymentDataType is \"\(type)\": Apple documents 3DSecure and EMV")
        }
        self.init(
            applicationPrimaryAccountNumber: try string("applicationPrimaryAccountNumber", in: object),
            applicationExpirationDate: try string("applicationExpirationDate", in: object),
            currencyCode: try string("currencyCode", in: object), transactionAmount: transactionAmount,
            cardholderName: try optional("cardholderName", in: object),
            deviceManufacturerIdentifier: try string("deviceManufacturerIdentifier", in: object), paymentData: paymentData,
            merchantTokenIdentifier: try optional("merchantTokenIdentifier", in: object),
            merchantTokenMetadata: object["merchantTokenMetadata"],
            decryptedJSON: object, transactionId: token.header.transactionIdHex, signingTime: signingTime, version: token.version,
            publicKeyHash: key.publicKeyHash)
    }
}
