import Foundation
import Passmint
import PassmintPay
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// ``PaymentToken/init(json:)-([UInt8])``: the shapes a token arrives in, and errors naming the JSON path.
@Suite(.computeThreads) struct PaymentTokenParsingTests {
    static func paymentData() throws -> JSONObject {
        try #require(JSONParser.value(try TestEnvironment.applePayVectors().token("ec")).objectValue)
    }

    static func error(_ value: JSONValue) -> String {
        do {
            _ = try PaymentToken(json: value)
            return "parsed"
        } catch {
            return error.code == .invalidToken ? error.message : "\(error.code): \(error.message)"
        }
    }

    @Test func paymentDataAloneWholeTokenBase64PaymentDataAndTheWebsTokenAllParse() throws {
        let data = try Self.paymentData()
        let alone = try PaymentToken(json: .object(data))
        let base64 = Data(JSONWriter.data(.object(data), style: .compact)).base64EncodedString()
        for shape: JSONValue in [
            ["paymentData": .object(data), "transactionIdentifier": "AB"], ["paymentData": .string(base64)],
            ["token": ["paymentData": .object(data), "paymentMethod": ["network": "Visa"]]],
        ] {
            let token = try PaymentToken(json: shape)
            #expect(token.signedBytes == alone.signedBytes && token.signature == alone.signature)
        }
    }

    @Test func errorsNameThePathAndWhatWasFound() throws {
        var data = try Self.paymentData()
        let header = try #require(data["header"]?.objectValue)
        #expect(Self.error(["paymentData": 5]) == "paymentData is number, expected an object")
        #expect(Self.error(["foo": 1, "bar": 2]).contains("its keys: foo, bar"))
        #expect(Self.error([1]) == "the payment token is array, expected a JSON object")
        data["version"] = "EC_v2"
        #expect(Self.error(["paymentData": .object(data)]) == "paymentData.version is \"EC_v2\": Passmint reads EC_v1 and RSA_v1 tokens")
        data["version"] = "EC_v1"
        data["data"] = "not base64!"
        #expect(Self.error(.object(data)) == "data is \"not base64!\", expected base64")
        data = try Self.paymentData()
        var changed = header
        changed["transactionId"] = "xyz"
        data["header"] = .object(changed)
        #expect(Self.error(["paymentData": .object(data)]) == "paymentData.header.transactionId is \"xyz\", expected hexadecimal")
        changed = header
        changed["publicKeyHash"] = "AAAA"
        data["header"] = .object(changed)
        #expect(Self.error(.object(data)).hasPrefix("header.publicKeyHash is \"AAAA\": expected base64 of a 32-byte SHA-256"))
        changed = header
        changed["ephemeralPublicKey"] = nil
        data["header"] = .object(changed)
        #expect(Self.error(.object(data)) == "header.ephemeralPublicKey is missing")
        changed["wrappedKey"] = "AAAA"
        data["header"] = .object(changed)
        #expect(Self.error(.object(data)).contains("header has a wrappedKey, which only RSA_v1 tokens have"))
        #expect(throws: PaymentTokenError.self) { try PaymentToken(json: Array("{".utf8)) }
    }
}
