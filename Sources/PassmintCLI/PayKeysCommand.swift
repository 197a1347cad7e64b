import ArgumentParser
import Foundation
import Passmint
import PassmintPay

struct PayKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Show what each merchant key decrypts: merchant identifier, publicKeyHash, dates, key match.",
        discussion: """
            The first thing to run when tokens do not decrypt: a token's header.publicKeyHash must be one of the hashes \
            printed here. Exit status 1 when a certificate carries no merchant identifier, its key is not its own, or \
            it is outside its validity.
            """
    )

    @OptionGroup(title: "Merchant keys") var merchant: MerchantKeyOptions

    @Option(
        help: ArgumentHelp("Judge the certificates' validity at this RFC 3339 time (default: now).", valueName: "time"),
        transform: { try OptionValue.time($0, option: "--at") })
    var at: Date?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let now = at ?? Date()
        var reports: [JSONValue] = []
        var usable = true
        for pair in merchant.load() {
            switch pair.result {
            case .success(let key):
                let current = key.certificate.notBefore <= now && now <= key.certificate.notAfter
                let uidHash = key.merchantIdentifier.map { Digest.sha256Hex(Array($0.utf8)) }
                usable = usable && key.keyMatchesCertificate && current
                reports.append([
                    "certificate": .string(pair.certificate), "key": .string(pair.key),
                    "merchantIdentifier": key.merchantIdentifier.map(JSONValue.string) ?? .null,
                    "commonName": key.certificate.commonName.map(JSONValue.string) ?? .null,
                    "merchantIdentifierHash": .string(key.merchantIdentifierHashHex),
                    "merchantIdentifierHashMatchesUID": uidHash.map { .bool($0 == key.merchantIdentifierHashHex) } ?? .null,
                    "publicKeyHash": .string(key.publicKeyHash), "keyType": .string(key.privateKey.algorithm),
                    "version": .string(key.version.rawValue), "notBefore": .string(RFC3339Date.string(from: key.certificate.notBefore)),
                    "notAfter": .string(RFC3339Date.string(from: key.certificate.notAfter)), "valid": .bool(current),
                    "checkedAt": .string(RFC3339Date.string(from: now)),
                    "keyMatchesCertificate": .bool(key.keyMatchesCertificate),
                ])
            case .failure(let error):
                usable = false
                reports.append(["certificate": .string(pair.certificate), "key": .string(pair.key), "error": .string("\(error)")])
            }
        }
        if json {
            print(JSONWriter.string(["keys": .array(reports), "usable": .bool(usable)]), terminator: "")
        } else {
            for (index, report) in reports.enumerated() { print((index == 0 ? "" : "\n") + Self.text(report)) }
        }
        if !usable { throw ExitCode(1) }
    }

    static func text(_ report: JSONValue) -> String {
        let field = { (key: String) in report[key]?.stringValue ?? "?" }
        var lines = ["== \(field("certificate")) with \(field("key"))"]
        if let error = report["error"]?.stringValue { return (lines + ["error: \(error)"]).joined(separator: "\n") }
        let uidCheck =
            switch report["merchantIdentifierHashMatchesUID"] {
            case .bool(true): " (= SHA-256 of the UID)"
            case .bool(false): " (NOT the SHA-256 of the UID: the certificate is inconsistent)"
            default: ""
            }
        lines += [
            "merchant identifier:      \(field("merchantIdentifier")) (CN=\(field("commonName")))",
            "merchant identifier hash: \(field("merchantIdentifierHash"))\(uidCheck)",
            "publicKeyHash:            \(field("publicKeyHash")) (\(field("keyType")): decrypts \(field("version")) tokens)",
            "validity:                 \(field("notBefore")) … \(field("notAfter"))"
                + (report["valid"] == .bool(true) ? "" : " — NOT valid at \(field("checkedAt")): renew the payment processing certificate"),
            "key matches certificate:  "
                + (report["keyMatchesCertificate"] == .bool(true)
                    ? "yes" : "NO: this key is not the certificate's; pair each certificate with its key"),
        ]
        return lines.joined(separator: "\n")
    }
}
