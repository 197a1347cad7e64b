import ArgumentParser
import Foundation
import Passmint
import PassmintPush

struct CertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Check and import signing certificates.",
        subcommands: [Check.self, Import.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Certificate doctor: identity, issuer and WWDR generation, validity, key match, NFC, .p12 cipher, APNs key.",
            discussion: """
                Checks every identity of the certificates folder (its own and one per pass.* sub-folder) in one run. Exit \
                status 1 when a check fails (wrong key, wrong WWDR file, expired, not a Pass Type ID certificate, a \
                sub-folder whose certificate is for another pass type, an APNs key that cannot sign provider tokens).
                """
        )

        @OptionGroup(title: "Signing") var signing: SigningOptions

        @Option(
            help: ArgumentHelp(
                "The pass type identifier the certificate must carry (a pass.* sub-folder's certificate must carry its name).",
                valueName: "ID"))
        var passTypeId: String?

        @Option(help: ArgumentHelp("Also check an APNs auth key (.p8) for passmint serve --apns-key.", valueName: "file.p8"))
        var apnsKey: String?

        @Option(help: ArgumentHelp("The .p8 key's identifier (default: from the file name AuthKey_<KEYID>.p8).", valueName: "id"))
        var apnsKeyId: String?

        @Flag(help: "Print the report as JSON.")
        var json = false

        func run() async throws {
            var reports: [CertificateReport] = []
            for var input in try signing.doctorInputs() {
                if let passTypeId { input.expectedPassTypeIdentifier = input.expectedPassTypeIdentifier ?? passTypeId }
                var report = CertificateDoctor.check(input)
                if let apnsKey {
                    report.checks.append(Self.checkAPNsKey(apnsKey, keyIdentifier: apnsKeyId, team: report.teamIdentifier))
                }
                reports.append(report)
            }
            if json {
                // One identity: its report, as before; several: every report, and whether all are usable.
                let value: JSONValue =
                    reports.count == 1
                    ? reports[0].json
                    : .object(["identities": .array(reports.map(\.json)), "usable": .bool(reports.allSatisfy(\.isUsable))])
                print(JSONWriter.string(value), terminator: "")
            } else {
                let formatter = ISO8601DateFormatter()
                for (index, report) in reports.enumerated() {
                    if reports.count > 1 { print((index == 0 ? "" : "\n") + "== \(report.passTypeIdentifier ?? report.subject)") }
                    print("subject:    \(report.subject)")
                    print("issuer:     \(report.issuer)\(report.issuingWWDR.map { " [\($0)]" } ?? "")")
                    print("validity:   \(formatter.string(from: report.notBefore)) … \(formatter.string(from: report.notAfter))")
                    for check in report.checks { print(check.line) }
                }
            }
            if !reports.allSatisfy(\.isUsable) { throw ExitCode(1) }
        }

        /// Loads the key the way `serve --apns-key` does and signs a provider token with it.
        static func checkAPNsKey(_ path: String, keyIdentifier: String?, team: String?) -> VerificationReport.Check {
            guard let team else {
                return .init(name: "apns-key", status: .failed, detail: "the certificate names no team: give passmint serve --apns-team-id")
            }
            do {
                let token = try APNsProviderToken(p8Path: path, keyIdentifier: keyIdentifier, teamIdentifier: team)
                _ = try token.token()
                return .init(
                    name: "apns-key", status: .passed,
                    detail:
                        "\(path): P-256 key \(token.keyIdentifier) signs ES256 provider tokens for team \(team) (the key must belong to the pass type ID's team)"
                )
            } catch {
                return .init(name: "apns-key", status: .failed, detail: error.message)
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Unpack a .p12 into signer.pem, signer.key (mode 0600) and wwdr.pem in a certificates folder.",
            discussion: """
                wwdr.pem comes from the bundle's chain when it holds the issuer, otherwise from Passmint's copies of Apple's \
                WWDR certificates. Existing files are not overwritten without --force.
                """
        )

        @Option(help: ArgumentHelp("The PKCS#12 bundle to import.", valueName: "file.p12"))
        var p12: String

        @OptionGroup var secret: PassphraseOptions

        @Option(help: ArgumentHelp("Folder to write into.", valueName: "dir"))
        var certificates: String = "Certificates"

        @Flag(help: "Overwrite existing files.")
        var force = false

        func run() async throws {
            let bundle = try PKCS12Bundle(contentsOf: p12, password: try secret.passphrase())
            let wwdr = bundle.chain.first { $0.issued(bundle.certificate) } ?? AppleCertificates.issuer(of: bundle.certificate)?.certificate
            try FileManager.default.createDirectory(atPath: certificates, withIntermediateDirectories: true)
            let targets = ["signer.pem", "signer.key"] + (wwdr == nil ? [] : ["wwdr.pem"])
            if !force {
                for name in targets where FileManager.default.fileExists(atPath: certificates + "/" + name) {
                    throw ValidationError("\(certificates)/\(name) exists; pass --force to overwrite it")
                }
            }
            try FileIO.writeAtomically(Array(bundle.certificate.pem.utf8), to: certificates + "/signer.pem")
            try FileIO.writeAtomically(bundle.privateKey.unencryptedPEM, to: certificates + "/signer.key", permissions: 0o600)
            if let wwdr {
                try FileIO.writeAtomically(Array(wwdr.pem.utf8), to: certificates + "/wwdr.pem")
            } else {
                printError(
                    "warning: no WWDR intermediate issued this certificate, in the bundle or among Apple's; add \(certificates)/wwdr.pem yourself"
                )
            }
            print(
                "wrote \(targets.map { certificates + "/" + $0 }.joined(separator: ", ")) for \(bundle.certificate.userID ?? bundle.certificate.subject)"
            )
        }
    }
}
