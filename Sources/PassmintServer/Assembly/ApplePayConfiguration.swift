public import Foundation
public import NIOSSL
import Passmint
public import PassmintPay

/// Apple Pay in the service (`--apple-pay-merchant-cert`, `--apple-pay-merchant-key`, …): the merchant keys tokens
/// are decrypted with, and the processor that authorizes a payment. Read and checked at start: a key that is not its
/// certificate's, or a processor URL that is not https, stops the service before it listens.
public struct ApplePayConfiguration: Sendable {
    /// The variable holding the secret the processor's requests are signed with (never a flag: `ps` would show it).
    public static let processorSecretVariable = "PASSMINT_APPLE_PAY_PROCESSOR_SECRET"
    /// The variable holding the password of encrypted Apple Pay keys, the payment processing keys' and the Merchant
    /// Identity's (one for all of them; never a flag).
    public static let merchantKeyPassphraseVariable = "PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE"

    /// Verifies and decrypts tokens with the merchant keys held (several while certificates rotate).
    public var decryptor: PaymentTokenDecryptor
    /// Where a decrypted payment is sent for authorization; nil: approved as it is, its data returned to the caller.
    public var processor: Processor?
    /// How long the processor (or Apple's merchant validation) has to answer.
    public var timeout: Duration

    /// The processor endpoint: an https URL, the secret that signs each request (`Passmint-Signature`, as webhook
    /// deliveries are), and extra roots to trust for it (a private CA).
    public struct Processor: Sendable {
        public var url: URL
        public var secret: String
        /// Trusted besides the system's roots (`--apple-pay-processor-ca`).
        public var trustRoots: [NIOSSLCertificate]

        public init(url: URL, secret: String, trustRoots: [NIOSSLCertificate] = []) {
            self.url = url
            self.secret = secret
            self.trustRoots = trustRoots
        }
    }

    public init(decryptor: PaymentTokenDecryptor, processor: Processor? = nil, timeout: Duration = .seconds(10)) {
        self.decryptor = decryptor
        self.processor = processor
        self.timeout = timeout
    }

    /// Reads the Apple Pay settings: nil when no merchant certificate or key is given.
    static func read(_ settings: SettingSources, environment: [String: String]) throws(ConfigurationError) -> ApplePayConfiguration? {
        let declared = ServeSettings.declared
        let certificates = try settings.text(declared.applePayMerchantCert.declaration)
        let keys = try settings.text(declared.applePayMerchantKey.declaration)
        let processorURL = try settings.text(declared.applePayProcessorURL.declaration)
        let certificateFlag = declared.applePayMerchantCert.declaration.flag
        let keyFlag = declared.applePayMerchantKey.declaration.flag
        guard let certificates, let keys else {
            if let given = certificates ?? keys {
                throw ConfigurationError(
                    "\(given.origin) gives Apple Pay merchant \(certificates == nil ? "keys" : "certificates") without their "
                        + "\(certificates == nil ? "certificates" : "keys"): give \(certificateFlag) and \(keyFlag) in pairs, "
                        + "in the same order, or neither")
            }
            if let processorURL {
                throw ConfigurationError(
                    "\(processorURL.origin) names an Apple Pay processor but no merchant key: give \(certificateFlag) and \(keyFlag)")
            }
            return nil
        }
        let certificateItems = try Self.items(certificates, kind: "CERTIFICATE")
        let keyItems = try Self.items(keys, kind: "PRIVATE KEY")
        guard certificateItems.count == keyItems.count else {
            throw ConfigurationError(
                "\(certificates.origin) gives \(certificateItems.count) Apple Pay merchant certificate(s) and \(keys.origin) "
                    + "\(keyItems.count) key(s): give one key for each certificate, in the same order")
        }
        var merchantKeys: [MerchantKey] = []
        let passphrase = environment[merchantKeyPassphraseVariable]
        for (index, (certificate, key)) in zip(certificateItems, keyItems).enumerated() {
            let pair = "Apple Pay merchant pair \(index + 1) (\(certificate.name), \(key.name))"
            let privateKey = try privateKey(pem: key.bytes, source: key.name, passphrase: passphrase, of: pair)
            do {
                let key = try MerchantKey(
                    certificate: try Certificate(bytes: certificate.bytes, source: certificate.name), privateKey: privateKey)
                guard key.keyMatchesCertificate else {
                    throw ConfigurationError(
                        "\(pair): the key is not the certificate's (publicKeyHash \(key.publicKeyHash)): pair each certificate with "
                            + "its own key, in the same order (passmint pay keys checks a pair)")
                }
                merchantKeys.append(key)
            } catch let error as ConfigurationError {
                throw error
            } catch let error as PaymentTokenError {
                throw ConfigurationError("\(pair): \(error.message)")
            } catch {
                throw ConfigurationError("\(pair): \((error as? PassmintError)?.message ?? "\(error)")")
            }
        }
        let decryptor: PaymentTokenDecryptor
        do {
            decryptor = try PaymentTokenDecryptor(merchantKeys: merchantKeys, verifier: try PaymentSignatureVerifier())
        } catch {
            throw ConfigurationError("the Apple Pay merchant keys: \(error.message)")
        }
        var configuration = ApplePayConfiguration(decryptor: decryptor)
        configuration.timeout = try settings.value(declared.applePayTimeout) ?? configuration.timeout
        let secret = environment[processorSecretVariable]
        if let processorURL {
            let url = try declared.applePayProcessorURL.value(of: processorURL.text, from: processorURL.origin)
            guard url.scheme?.lowercased() == "https" else {
                throw ConfigurationError(
                    "\(processorURL.origin) \(processorURL.text) must be an https URL: the processor is sent the decrypted payment data")
            }
            guard let secret, secret.count >= 32 else {
                throw ConfigurationError(
                    "\(processorURL.origin) names an Apple Pay processor: set \(processorSecretVariable) (or "
                        + "\(processorSecretVariable)_FILE) to a secret of at least 32 characters, which signs its requests")
            }
            var roots: [NIOSSLCertificate] = []
            if let file = try settings.text(declared.applePayProcessorCA.declaration) {
                do {
                    roots = try NIOSSLCertificate.fromPEMFile(file.text)
                } catch {
                    throw ConfigurationError("\(file.origin) \(file.text) cannot be read as PEM certificates: \(error)")
                }
            }
            configuration.processor = Processor(url: url, secret: secret, trustRoots: roots)
        } else if secret != nil {
            throw ConfigurationError(
                "\(processorSecretVariable) is set but no processor: give \(declared.applePayProcessorURL.declaration.flag) too, or unset it"
            )
        }
        return configuration
    }

    /// The one way serve reads an Apple Pay private key from PEM (a payment processing key, or the Merchant Identity's
    /// beside its certificate): decrypted with `passphrase`, the value of ``merchantKeyPassphraseVariable``, when it is
    /// encrypted. Errors begin with `owner`, what the key belongs to.
    static func privateKey(pem bytes: [UInt8], source: String, passphrase: String?, of owner: String) throws(ConfigurationError)
        -> PrivateKey
    {
        let encrypted = String(decoding: bytes, as: UTF8.self).contains("ENCRYPTED")
        if passphrase == nil, encrypted {
            throw ConfigurationError(
                "\(owner): the key is encrypted: set \(merchantKeyPassphraseVariable) (or \(merchantKeyPassphraseVariable)_FILE) "
                    + "to its password")
        }
        do {
            return try PrivateKey(pemBytes: bytes, passphrase: passphrase, source: source)
        } catch {
            guard encrypted else { throw ConfigurationError("\(owner): \(error.message)") }
            throw ConfigurationError(
                "\(owner): the encrypted key of \(source) does not open with the password in \(merchantKeyPassphraseVariable): "
                    + "check that variable (or \(merchantKeyPassphraseVariable)_FILE)")
        }
    }

    /// The PEM blocks of `kind` in a value holding PEM text (from a `_FILE` variable), or else the files of its
    /// comma-separated list, each with how errors name it.
    private static func items(
        _ given: (text: String, origin: SettingOrigin), kind: String
    ) throws(ConfigurationError) -> [(name: String, bytes: [UInt8])] {
        if given.text.contains("-----BEGIN") {
            let blocks = given.text.components(separatedBy: "-----BEGIN ").dropFirst().map { "-----BEGIN " + $0 }
            let chosen = blocks.filter { $0.prefix(40).contains(kind) }
            guard !chosen.isEmpty else {
                throw ConfigurationError(
                    "\(given.origin) holds PEM text but no \(kind) block: give PEM \(kind.lowercased()) text or file paths")
            }
            return chosen.enumerated().map { ("\(given.origin) block \($0.offset + 1)", Array($0.element.utf8)) }
        }
        var items: [(name: String, bytes: [UInt8])] = []
        for path in given.text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !path.isEmpty {
            do {
                let what = "Apple Pay \(kind.lowercased()) file"
                items.append((path, try FileIO.read(path, what: what, maximumBytes: 64 * 1024, limit: "a \(what) may weigh")))
            } catch {
                throw ConfigurationError("\(given.origin): \(error.message)")
            }
        }
        return items
    }
}
