import ArgumentParser
import Foundation
import Passmint

/// Where the signing identity comes from, shared by every command that signs.
struct SigningOptions: ParsableArguments {
    @Option(
        name: .customLong("certificates"),
        help: ArgumentHelp(
            "Folder with signer.pem + signer.key (or signer.p12) and wwdr.pem, and/or one pass.* sub-folder per pass type identifier (default: $PASSMINT_CERTIFICATES, else Certificates).",
            valueName: "dir"))
    var certificatesOption: String?

    /// The certificates folder: the option, else `PASSMINT_CERTIFICATES`, else `Certificates`.
    var certificates: String {
        certificatesOption ?? ProcessInfo.processInfo.environment["PASSMINT_CERTIFICATES"] ?? "Certificates"
    }

    @Option(help: ArgumentHelp("Pass Type ID certificate (PEM or DER); overrides the certificates folder.", valueName: "file"))
    var signerCert: String?

    @Option(help: ArgumentHelp("Private key of the certificate (PEM, optionally encrypted).", valueName: "file"))
    var signerKey: String?

    @Option(help: ArgumentHelp("PKCS#12 bundle with certificate and key (Keychain exports with legacy ciphers work).", valueName: "file"))
    var p12: String?

    @Option(
        help: ArgumentHelp(
            "Apple WWDR intermediate certificate that issued the signer (e.g. Certificates/apple/AppleWWDRCAG4.pem).", valueName: "file"))
    var wwdr: String?

    @OptionGroup var secret: PassphraseOptions

    func validate() throws {
        if p12 != nil && (signerCert != nil || signerKey != nil) {
            throw ValidationError("use either --p12 or --signer-cert/--signer-key, not both")
        }
        if (signerCert == nil) != (signerKey == nil) {
            throw ValidationError("--signer-cert and --signer-key go together")
        }
    }

    func passphrase() throws -> String? { try secret.passphrase() }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Loads the identities: the explicit files (one identity), or else every identity in the certificates folder
    /// (see `CertificatesFolder`), and says on stderr when Passmint chose a WWDR intermediate itself.
    func loadIdentities() throws -> SigningIdentities {
        let identities = try loadIdentityFiles()
        for identity in identities.all {
            if let note = identity.intermediateNote { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        }
        return identities
    }

    private func loadIdentityFiles() throws -> SigningIdentities {
        let secret = try passphrase()
        let wwdrPath = wwdr ?? (exists(certificates + "/wwdr.pem") ? certificates + "/wwdr.pem" : nil)
        if let p12 {
            return SigningIdentities(try SigningIdentity(p12Path: p12, password: secret, wwdrPath: wwdrPath))
        }
        if let signerCert, let signerKey {
            return SigningIdentities(
                try SigningIdentity(certificatePath: signerCert, keyPath: signerKey, passphrase: secret, wwdrPath: wwdrPath))
        }
        return try CertificatesFolder(path: certificates).load(passphrase: secret)
    }

    /// The pieces for `certs check`, loaded without requiring that they fit together: the explicit files, or every
    /// identity in the certificates folder (a `pass.*` sub-folder's certificate must carry the folder's name).
    func doctorInputs() throws -> [CertificateDoctor.Input] {
        let secret = try passphrase()
        if p12 != nil || signerCert != nil || !exists(certificates) {
            let folderWWDR = certificates + "/wwdr.pem"
            let entry = CertificatesFolder.Entry(
                folder: certificates, certificatePath: signerCert ?? certificates + "/signer.pem",
                keyPath: signerKey ?? certificates + "/signer.key", p12Path: p12, wwdrPath: wwdr ?? (exists(folderWWDR) ? folderWWDR : nil))
            return [try doctorInput(entry, passphrase: secret)]
        }
        return try CertificatesFolder(path: certificates).entries().map { entry in
            var entry = entry
            if let wwdr { entry.wwdrPath = wwdr }
            return try doctorInput(entry, passphrase: secret)
        }
    }

    private func doctorInput(_ entry: CertificatesFolder.Entry, passphrase secret: String?) throws -> CertificateDoctor.Input {
        let wwdrCertificate = try entry.wwdrPath.map { try Certificate(contentsOf: $0) }
        if let p12Path = entry.p12Path {
            let bundle = try PKCS12Bundle(contentsOf: p12Path, password: secret)
            return CertificateDoctor.Input(
                certificate: bundle.certificate, privateKey: bundle.privateKey, wwdr: wwdrCertificate,
                wwdrSource: entry.wwdrPath ?? "the .p12's chain", p12: bundle,
                expectedPassTypeIdentifier: entry.expectedPassTypeIdentifier)
        }
        let certificatePath = entry.certificatePath ?? entry.folder + "/signer.pem"
        let keyPath = entry.keyPath ?? entry.folder + "/signer.key"
        let certificate = try Certificate(contentsOf: certificatePath)
        let key = exists(keyPath) ? try PrivateKey(contentsOf: keyPath, passphrase: secret) : nil
        return CertificateDoctor.Input(
            certificate: certificate, privateKey: key, wwdr: wwdrCertificate, wwdrSource: entry.wwdrPath,
            expectedPassTypeIdentifier: entry.expectedPassTypeIdentifier)
    }
}
