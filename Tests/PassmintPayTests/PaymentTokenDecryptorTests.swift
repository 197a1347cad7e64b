import Foundation
import Passmint
import PassmintPay
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// ``PaymentTokenDecryptor`` against tokens that `Tests/ApplePay/make_tokens.py` signed and encrypted with Python's
/// `cryptography` (a test CA with Apple's marker OIDs; EC P-256 and RSA-2048 merchant keys), so the encryptor and
/// the decryptor cannot agree on a wrong protocol.
@Suite(.computeThreads) struct PaymentTokenDecryptorTests {
    static func vectors() throws -> ApplePayVectors { try TestEnvironment.applePayVectors() }

    static func key(_ name: String) throws -> MerchantKey {
        let vectors = try vectors()
        return try MerchantKey(certificatePath: vectors.path("\(name).pem"), keyPath: vectors.path("\(name)-key.pem"))
    }

    static func decryptor(_ names: [String] = ["merchant-ec", "merchant-ec-2", "merchant-rsa"], window: Duration = .seconds(300))
        throws -> PaymentTokenDecryptor
    {
        let root = try Certificate(contentsOf: try vectors().path("root.pem"))
        return try PaymentTokenDecryptor(
            merchantKeys: try names.map(key), verifier: PaymentSignatureVerifier(testOnlyRoot: root, signingTimeWindow: window))
    }

    /// What make_tokens.py recorded about a token.
    static func expected(_ name: String) throws -> JSONValue {
        let manifest = try JSONParser.value(Array(try Data(contentsOf: URL(fileURLWithPath: try vectors().path("manifest.json")))))
        return try #require(manifest[name])
    }

    static func decrypt(_ name: String, keys: [String] = ["merchant-ec", "merchant-ec-2", "merchant-rsa"]) throws -> DecryptedPayment {
        try decryptor(keys).decrypt(json: try vectors().token(name), at: ApplePayVectors.verifyAt)
    }

    /// The error decrypting `name` throws; fails the test when it decrypts.
    static func failure(_ name: String, keys: [String] = ["merchant-ec", "merchant-ec-2", "merchant-rsa"]) throws -> PaymentTokenError {
        do {
            let payment = try decrypt(name, keys: keys)
            Issue.record("\(name) decrypted: \(payment)")
            return PaymentTokenError(.invalidToken, "decrypted")
        } catch let error as PaymentTokenError {
            return error
        }
    }

    @Test(arguments: ["ec", "ec-whole-appdata", "ec-2", "rsa", "rsa-appdata-emv", "rsa-mgf1-sha1", "rsa-signer", "ec-merchant-token"])
    func aTokenMadeIndependentlyVerifiesAndDecrypts(_ name: String) throws {
        let payment = try Self.decrypt(name)
        let expected = try Self.expected(name)
        let plaintext = try #require(expected["plaintext"]?.objectValue)
        #expect(payment.decryptedJSON == plaintext)
        #expect(payment.applicationPrimaryAccountNumber == plaintext["applicationPrimaryAccountNumber"]?.stringValue)
        #expect(payment.transactionAmount == plaintext["transactionAmount"]?.numberValue?.intValue)
        #expect(payment.currencyCode == plaintext["currencyCode"]?.stringValue)
        #expect(payment.applicationExpirationDate == plaintext["applicationExpirationDate"]?.stringValue)
        #expect(payment.deviceManufacturerIdentifier == plaintext["deviceManufacturerIdentifier"]?.stringValue)
        #expect(payment.cardholderName == plaintext["cardholderName"]?.stringValue)
        #expect(payment.paymentDataType == plaintext["paymentDataType"]?.stringValue)
        #expect(payment.transactionId == expected["transactionId"]?.stringValue)
        #expect(payment.publicKeyHash == expected["publicKeyHash"]?.stringValue)
        #expect(payment.version.rawValue == expected["version"]?.stringValue)
        #expect(RFC3339Date.string(from: payment.signingTime) == expected["signingTime"]?.stringValue)
        let details = try #require(plaintext["paymentData"]?.objectValue)
        switch payment.paymentData {
        case .threeDSecure(let cryptogram, let eci):
            #expect(cryptogram == details["onlinePaymentCryptogram"]?.stringValue && eci == details["eciIndicator"]?.stringValue)
        case .emv(let emvData, let pin):
            #expect(emvData == details["emvData"]?.stringValue && pin == details["encryptedPINData"]?.stringValue)
        }
    }

    @Test func theWholeTokenKeepsItsPaymentMethodAndApplicationData() throws {
        let token = try PaymentToken(json: try Self.vectors().token("ec-whole-appdata"))
        #expect(token.paymentMethod == PaymentToken.PaymentMethod(displayName: "Visa 0224", network: "Visa", type: "debit"))
        #expect(token.transactionIdentifier?.lowercased() == token.header.transactionIdHex)
        #expect(token.header.applicationData?.count == 32)
        #expect(token.version == .ecV1 && token.header.ephemeralPublicKey != nil && token.header.wrappedKey == nil)
    }

    @Test func merchantTokenFieldsAndUnknownKeysAreKept() throws {
        let payment = try Self.decrypt("ec-merchant-token")
        #expect(payment.merchantTokenIdentifier == "DNITHE302308980427388633")
        #expect(payment.merchantTokenMetadata?["cardMetadata"]?["lastFour"]?.stringValue == "1488")
        #expect(payment.decryptedJSON["somethingApplePlansLater"]?["nested"]?.arrayValue?.count == 2)
    }

    @Test func theKeyTheTokenNamesIsChosenAmongSeveral() throws {
        let decryptor = try Self.decryptor(["merchant-rsa", "merchant-ec", "merchant-ec-2"])
        for (name, keyName) in [("ec", "merchant-ec"), ("ec-2", "merchant-ec-2"), ("rsa", "merchant-rsa")] {
            let token = try PaymentToken(json: try Self.vectors().token(name))
            #expect(try decryptor.key(for: token).publicKeyHash == Self.key(keyName).publicKeyHash)
            #expect(try decryptor.decrypt(token, at: ApplePayVectors.verifyAt).publicKeyHash == Self.key(keyName).publicKeyHash)
        }
        // With only the first EC key, a token for the second names both hashes.
        let error = try Self.failure("ec-2", keys: ["merchant-ec"])
        let held = try Self.key("merchant-ec").publicKeyHash
        let wanted = try #require(try Self.expected("ec-2")["publicKeyHash"]?.stringValue)
        #expect(error.code == .noMatchingKey)
        #expect(
            error.message.hasPrefix(
                "cannot decrypt: the token was encrypted to key hash \(wanted); you hold keys with hashes \(held) (merchant.dev.passmint.test, EC)"
            ))
    }

    @Test func eachTamperedTokenFailsWithItsOwnMessage() throws {
        let vectors = try Self.vectors()
        let hold = try Self.key("merchant-ec").publicKeyHash
        var messages: [String: String] = [:]
        func check(_ name: String, keys: [String] = ["merchant-ec"], _ code: PaymentTokenError.Code, _ parts: [String]) throws {
            let error = try Self.failure(name, keys: keys)
            #expect(error.code == code, "\(name): \(error)")
            for part in parts { #expect(error.message.contains(part), "\(name): \(error.message) lacks \(part)") }
            messages[name] = error.message
        }
        let data = try #require(try Self.expected("tamper-data")["transactionId"]?.stringValue)
        try check(
            "tamper-data", .signatureMismatch, ["the signature does not match", "transactionId \(data)", "altered after Apple signed it"])
        try check("tamper-ephemeral", .invalidToken, ["header.ephemeralPublicKey is not a P-256 public key"])
        let flipped = try PaymentToken(json: try vectors.token("tamper-transaction")).header.transactionIdHex
        #expect(flipped != (try Self.expected("tamper-transaction")["transactionId"]?.stringValue))
        try check("tamper-transaction", .signatureMismatch, ["the signature does not match", "transactionId \(flipped)"])
        let wrong = try #require(try Self.expected("wrong-hash")["publicKeyHash"]?.stringValue)
        try check("wrong-hash", .noMatchingKey, ["the token was encrypted to key hash \(wrong); you hold keys with hashes \(hold)"])
        try check("no-intermediate", .missingCertificate, ["no intermediate certificate with OID 1.2.840.113635.100.6.2.14"])
        try check("leaf-without-oid", .missingCertificate, ["no leaf certificate with Apple Pay's marker OID 1.2.840.113635.100.6.29"])
        try check(
            "old-signing-time", .signingTimeOutOfWindow,
            ["the signing time 2021-09-01T19:03:06Z is 4 years before the verification time 2026-01-15T10:01:00Z (allowed: 5 minutes)"])
        try check(
            "rsa", keys: ["merchant-ec"], .noMatchingKey,
            ["this RSA_v1 token needs an RSA payment processing key", "you hold only EC keys: \(hold)"])
        try check("foreign-root", .untrustedChain, ["was not issued by Passmint Test Root CA - G3"])
        try check("sha384-digest", .invalidSignature, ["the signature's digest algorithm is SHA384, not SHA-256"])
        #expect(Set(messages.values).count == messages.count, "two tampered tokens failed alike: \(messages)")
    }

    @Test func theSigningTimeWindowAndTheVerificationTimeAreParameters() throws {
        let token = try Self.vectors().token("ec")
        let decryptor = try Self.decryptor(window: .seconds(30))
        do {
            _ = try decryptor.decrypt(json: token, at: ApplePayVectors.signedAt.addingTimeInterval(90))
            Issue.record("decrypted 90 s after signing with a 30 s window")
        } catch {
            #expect(error.code == .signingTimeOutOfWindow)
            #expect(error.message.contains("is 1 minute before the verification time 2026-01-15T10:01:30Z (allowed: 30 seconds)"))
        }
        do {
            _ = try decryptor.decrypt(json: token, at: ApplePayVectors.signedAt.addingTimeInterval(-3600))
            Issue.record("decrypted an hour before it was signed")
        } catch {
            #expect(error.message.contains("is 1 hour after the verification time") && error.message.contains("clock"), "\(error)")
        }
        _ = try decryptor.decrypt(json: token, at: ApplePayVectors.signedAt.addingTimeInterval(29))
        // Long after the certificates expired (2035), the chain no longer verifies at that time.
        let lenient = try Self.decryptor(window: .seconds(400 * 86_400 * 365))
        do {
            _ = try lenient.decrypt(json: token, at: Date(timeIntervalSince1970: 2_100_000_000))
            Issue.record("verified after the certificates expired")
        } catch {
            #expect(error.code == .untrustedChain && error.message.contains("certificate has expired"), "\(error)")
        }
    }

    /// A chain checked once is remembered with its certificates' validity: the next token it signed is not checked
    /// against the root again, but a time outside that validity, or another chain, is still refused.
    @Test func aCheckedChainIsRememberedOnlyWithinItsCertificatesValidity() throws {
        let root = try Certificate(contentsOf: try Self.vectors().path("root.pem"))
        let verifier = PaymentSignatureVerifier(testOnlyRoot: root, signingTimeWindow: .seconds(400 * 86_400 * 365))
        let decryptor = try PaymentTokenDecryptor(
            merchantKeys: [try Self.key("merchant-ec"), try Self.key("merchant-rsa")], verifier: verifier)
        #expect(verifier.rememberedChainCount == 0)
        for name in ["ec", "ec-whole-appdata", "rsa"] {
            _ = try decryptor.decrypt(json: try Self.vectors().token(name), at: ApplePayVectors.verifyAt)
        }
        #expect(verifier.rememberedChainCount == 1, "three tokens, one signing chain")
        _ = try decryptor.decrypt(json: try Self.vectors().token("rsa-signer"), at: ApplePayVectors.verifyAt)
        #expect(verifier.rememberedChainCount == 2)
        let ec = try Self.vectors().token("ec")
        for (time, reason) in [(2_100_000_000.0, "certificate has expired"), (1_500_000_000.0, "certificate is not yet valid")] {
            do {
                _ = try decryptor.decrypt(json: ec, at: Date(timeIntervalSince1970: time))
                Issue.record("a remembered chain verified at \(time), outside its certificates' validity")
            } catch {
                #expect(error.code == .untrustedChain && error.message.contains(reason), "\(error)")
            }
        }
        for (name, code) in [("foreign-root", PaymentTokenError.Code.untrustedChain), ("tamper-data", .signatureMismatch)] {
            let token = try Self.vectors().token(name)
            do {
                _ = try decryptor.decrypt(json: token, at: ApplePayVectors.verifyAt)
                Issue.record("\(name) verified after a good chain was remembered")
            } catch {
                #expect(error.code == code, "\(name): \(error)")
            }
        }
        #expect(verifier.rememberedChainCount == 2, "a chain that failed is not remembered")
    }

    @Test func theShippedRootIsAppleRootCAG3PinnedByFingerprint() throws {
        let verifier = try PaymentSignatureVerifier()
        #expect(verifier.root.sha256Fingerprint == PaymentSignatureVerifier.appleRootCAG3Fingerprint)
        #expect(verifier.root.commonName == "Apple Root CA - G3")
        #expect(verifier.signingTimeWindow == .seconds(300))
        // A token from the test CA is refused by the real root.
        let decryptor = try PaymentTokenDecryptor(merchantKeys: [try Self.key("merchant-ec")], verifier: verifier)
        let token = try Self.vectors().token("ec")
        do {
            _ = try decryptor.decrypt(json: token, at: ApplePayVectors.verifyAt)
            Issue.record("a test token verified against Apple Root CA - G3")
        } catch {
            #expect(error.code == .untrustedChain && error.message.contains("Apple Root CA - G3"), "\(error)")
        }
    }

    @Test func noAccountNumberOrCryptogramInDescriptionsAndErrors() throws {
        let payment = try Self.decrypt("ec")
        for text in [
            payment.description, payment.debugDescription, "\(payment)", String(describing: payment), JSONWriter.string(payment.json()),
        ] {
            #expect(!text.contains("4109370251004320") && !text.contains("Af9x/QwAA/DjmU65oyc1MAABAAA="), "\(text)")
        }
        var dumped = ""
        dump(payment, to: &dumped)
        #expect(!dumped.contains("4109370251004320") && !dumped.contains("Af9x/QwAA"), "\(dumped)")
        #expect(payment.description.contains("************4320") && payment.description.contains("AAA="))
        #expect(JSONWriter.string(payment.json(reveal: true)).contains("4109370251004320"))
        let emv = try Self.decrypt("rsa-appdata-emv")
        #expect(!JSONWriter.string(emv.json()).contains("nxAvbYKBcS1AaTLRl2DsYg==") && !emv.description.contains("Kx3PINBLOCK0099"))
        #expect(DecryptedPayment.masked("1234") == "****")
    }

    @Test func aKeyThatIsNotItsCertificatesOrACertificateWithoutMerchantIDIsRefused() throws {
        let vectors = try Self.vectors()
        let mixed = try MerchantKey(certificatePath: vectors.path("merchant-ec.pem"), keyPath: vectors.path("merchant-ec-2-key.pem"))
        #expect(!mixed.keyMatchesCertificate)
        let root = try Certificate(contentsOf: vectors.path("root.pem"))
        do {
            _ = try PaymentTokenDecryptor(merchantKeys: [mixed], verifier: PaymentSignatureVerifier(testOnlyRoot: root))
            Issue.record("a mismatched key was accepted")
        } catch {
            #expect(error.code == .invalidMerchantKey && error.message.contains("is not that certificate's key"))
        }
        do {
            _ = try MerchantKey(certificatePath: vectors.path("merchant-no-id.pem"), keyPath: vectors.path("merchant-no-id-key.pem"))
            Issue.record("a certificate without a merchant identifier was accepted")
        } catch let error as PaymentTokenError {
            #expect(
                error.code == .invalidMerchantKey && error.message.contains("carries no merchant identifier (OID 1.2.840.113635.100.6.32)"))
        }
        let key = try Self.key("merchant-ec")
        #expect(key.merchantIdentifier == "merchant.dev.passmint.test")
        #expect(key.merchantIdentifierHashHex == Digest.sha256Hex(Array("merchant.dev.passmint.test".utf8)))
        #expect(try Self.key("merchant-ec-2").merchantIdentifierHashHex == key.merchantIdentifierHashHex, "UTF8String and IA5String alike")
    }
}
