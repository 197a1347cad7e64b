import ArgumentParser
import Foundation
import Passmint

struct CertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Check and import signing certificates.",
        subcommands: [Check.self, Import.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Certificate doctor: identity, issuer and WWDR generation, validity, key match, NFC, .p12 cipher.",
            discussion: "Exit status 1 when a check fails (wrong key, wrong WWDR file, expired, not a Pass Type ID certificate)."
        )

        @OptionGroup(title: "Signing") var signing: SigningOptions

        @Option(help: ArgumentHelp("The pass type identifier the certificate must carry.", valueName: "ID"))
        var passTypeId: String?

        @Flag(help: "Print the report as JSON.")
        var json = false

        func run() async throws {
            let input = try signing.doctorInput()
            var doctorInput = input
            doctorInput.expectedPassTypeIdentifier = passTypeId
            let report = CertificateDoctor.check(doctorInput)
            if json {
                print(JSONWriter.string(report.json), terminator: "")
            } else {
                let formatter = ISO8601DateFormatter()
                print("subject:    \(report.subject)")
                print("issuer:     \(report.issuer)\(report.issuingWWDR.map { " [\($0)]" } ?? "")")
                print("validity:   \(formatter.string(from: report.notBefore)) … \(formatter.string(from: report.notAfter))")
                for check in report.checks { print(check.line) }
            }
            if !report.isUsable { throw ExitCode(1) }
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

        @Option(help: ArgumentHelp("Environment variable holding the bundle's password.", valueName: "VAR"))
        var passphraseEnv: String?

        @Option(help: ArgumentHelp("Folder to write into.", valueName: "dir"))
        var certificates: String = "Certificates"

        @Flag(help: "Overwrite existing files.")
        var force = false

        func run() async throws {
            var password: String?
            if let name = passphraseEnv {
                guard let value = ProcessInfo.processInfo.environment[name] else {
                    throw ValidationError("--passphrase-env \(name): the environment variable \(name) is not set")
                }
                password = value
            }
            let bundle = try PKCS12Bundle(contentsOf: p12, password: password)
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
                printError("warning: no WWDR intermediate issued this certificate, in the bundle or among Apple's; add \(certificates)/wwdr.pem yourself")
            }
            print("wrote \(targets.map { certificates + "/" + $0 }.joined(separator: ", ")) for \(bundle.certificate.userID ?? bundle.certificate.subject)")
        }
    }
}
