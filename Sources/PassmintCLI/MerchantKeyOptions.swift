import ArgumentParser
import Foundation
import Passmint
import PassmintPay

/// The Apple Pay payment processing certificates and keys `passmint pay` holds: `--merchant-cert` and
/// `--merchant-key` in pairs, repeated while an old and a new certificate overlap.
struct MerchantKeyOptions: ParsableArguments {
    @Option(
        name: .customLong("merchant-cert"),
        help: ArgumentHelp(
            "Apple Pay Payment Processing certificate (PEM or DER); repeat with its --merchant-key for each key held.", valueName: "file"))
    var certificates: [String] = []

    @Option(
        name: .customLong("merchant-key"),
        help: ArgumentHelp("The certificate's private key (PEM: EC P-256 for EC_v1, RSA for RSA_v1), in the same order.", valueName: "file")
    )
    var keys: [String] = []

    /// The keys' password when they are encrypted (one for all of them).
    @OptionGroup var secret: PassphraseOptions

    func validate() throws {
        guard !certificates.isEmpty else { throw ValidationError("give --merchant-cert FILE --merchant-key FILE (one pair per key held)") }
        guard certificates.count == keys.count else {
            throw ValidationError(
                "\(certificates.count) --merchant-cert and \(keys.count) --merchant-key given: give them in pairs, each certificate with its key"
            )
        }
    }

    /// Every pair as a merchant key; the first that is not one is refused, naming its files and the reason.
    func merchantKeys() throws -> [MerchantKey] {
        try load().map { pair throws -> MerchantKey in
            do { return try pair.result.get() } catch { throw ValidationError("\(pair.certificate) with \(pair.key): \(error)") }
        }
    }

    /// Each pair, in order, as a merchant key or the reason it is not one.
    func load() -> [(certificate: String, key: String, result: Result<MerchantKey, any Error>)] {
        let passphrase = Result { try secret.passphrase() }
        return zip(certificates, keys).map { certificate, key in
            (certificate, key, Result { try MerchantKey(certificatePath: certificate, keyPath: key, passphrase: try passphrase.get()) })
        }
    }
}

extension OptionValue {
    /// An RFC 3339 date-time, e.g. `2026-01-15T10:01:00Z`.
    static func time(_ text: String, option: String) throws -> Date {
        guard let date = RFC3339Date.parse(text) else {
            throw ValidationError("\(option) \(text) is not an RFC 3339 time: give e.g. 2026-01-15T10:01:00Z")
        }
        return date
    }
}
