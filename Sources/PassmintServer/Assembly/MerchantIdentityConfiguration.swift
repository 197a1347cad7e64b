public import Foundation
public import NIOSSL
import Passmint

/// Apple Pay on the web (`--apple-pay-merchant-identity`): the Merchant Identity certificate and key that
/// `POST /pay/session` presents to Apple (mutual TLS), and what it tells Apple about the merchant. Read and checked at
/// start: a file without a certificate or key, an encrypted key without its password, a key that is not the
/// certificate's, or a certificate without a merchant identifier stops the service before it listens.
public struct MerchantIdentityConfiguration: Sendable {
    /// The merchant identifier (`merchant.com.example`): the certificate's UID.
    public var merchantIdentifier: String
    /// What the payment sheet shows.
    public var displayName: String
    /// The domain the web pages are served from (`initiativeContext`).
    public var domain: String
    public var certificateChain: [NIOSSLCertificate]
    public var privateKey: NIOSSLPrivateKey
    /// How long Apple has to answer.
    public var timeout: Duration
    /// **For tests only**: a validation URL that passed the allow-list is sent to this base URL instead of Apple's host
    /// (its path kept), trusting these roots. Never a setting of `serve`; the allow-list is the same with or without it.
    public var testOnlyGateway: (url: URL, trustRoots: [NIOSSLCertificate])?

    public init(
        merchantIdentifier: String, displayName: String, domain: String, certificateChain: [NIOSSLCertificate],
        privateKey: NIOSSLPrivateKey, timeout: Duration = .seconds(10)
    ) {
        self.merchantIdentifier = merchantIdentifier
        self.displayName = displayName
        self.domain = domain
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.timeout = timeout
    }

    /// Reads the identity from PEM text holding the certificate (then any intermediates) and its private key,
    /// decrypted with `passphrase` (``ApplePayConfiguration/merchantKeyPassphraseVariable``'s value) when encrypted.
    public init(
        pem text: String, source: String, passphrase: String? = nil, displayName: String?, domain: String, timeout: Duration
    ) throws(ConfigurationError) {
        let bytes = Array(text.utf8)
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw ConfigurationError(
                "\(source) holds no PEM certificate: give the Merchant Identity certificate and its key in one PEM file")
        }
        guard text.contains("PRIVATE KEY-----") else {
            throw ConfigurationError(
                "\(source) holds no PEM private key: give the Merchant Identity certificate and its key in one PEM file")
        }
        guard let first = chain.first, let leaf = try? Certificate(bytes: try first.toDERBytes(), source: source) else {
            throw ConfigurationError(
                "\(source) holds no PEM certificate: give the Merchant Identity certificate and its key in one PEM file")
        }
        let pemKey = try ApplePayConfiguration.privateKey(
            pem: bytes, source: source, passphrase: passphrase, of: "the Merchant Identity \(source)")
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: pemKey.unencryptedPEM, format: .pem)
        } catch {
            throw ConfigurationError("\(source): the Merchant Identity key cannot be used for TLS: \(error)")
        }
        guard leaf.matches(pemKey) else {
            throw ConfigurationError(
                "\(source): the private key is not the key of its certificate \(leaf.subject): put the Merchant Identity certificate's own key beside it"
            )
        }
        guard let identifier = leaf.userID, !identifier.isEmpty else {
            throw ConfigurationError(
                "\(source): the certificate \(leaf.subject) carries no merchant identifier (UID): give the Apple Pay Merchant Identity certificate"
            )
        }
        self.init(
            merchantIdentifier: identifier, displayName: displayName ?? identifier, domain: domain, certificateChain: chain,
            privateKey: key, timeout: timeout)
    }

    /// Reads the identity settings: nil without `apple-pay-merchant-identity`. The file may be given as a path, or as
    /// its PEM text (`PASSMINT_APPLE_PAY_MERCHANT_IDENTITY_FILE`, as secrets are given).
    /// Its key's password is ``ApplePayConfiguration/merchantKeyPassphraseVariable``'s, as the merchant keys'.
    static func read(_ settings: SettingSources, publicURL: String, environment: [String: String]) throws(ConfigurationError)
        -> MerchantIdentityConfiguration?
    {
        let declared = ServeSettings.declared
        guard let given = try settings.text(declared.applePayMerchantIdentity.declaration) else { return nil }
        var text = given.text
        var source = "\(given.origin)"
        if !text.contains("-----BEGIN") {
            source += " \(given.text)"
            do {
                text = String(
                    decoding: try FileIO.readText(given.text, what: "Merchant Identity file", maximumBytes: 64 * 1024), as: UTF8.self)
            } catch {
                throw ConfigurationError("\(given.origin): \(error.message)")
            }
        }
        let domain = try settings.value(declared.applePayDomain) ?? URL(string: publicURL)?.host ?? ""
        return try MerchantIdentityConfiguration(
            pem: text, source: source, passphrase: environment[ApplePayConfiguration.merchantKeyPassphraseVariable],
            displayName: try settings.value(declared.applePayDisplayName), domain: domain,
            timeout: try settings.value(declared.applePayTimeout) ?? .seconds(10))
    }
}
