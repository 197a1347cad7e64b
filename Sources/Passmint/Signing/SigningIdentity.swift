internal import CPassmintOpenSSL
public import Foundation

/// A Pass Type ID certificate, its private key and the Apple WWDR intermediate that issued it: everything
/// needed to sign passes. Load it once and share it; it is immutable and safe to use from many threads.
public final class SigningIdentity: Sendable {
    /// The Pass Type ID certificate.
    public let certificate: Certificate
    /// The certificate's private key.
    public let privateKey: PrivateKey
    /// The WWDR intermediate (and any other chain certificates) put into every signature.
    public let intermediates: [Certificate]
    /// Set when Passmint chose the intermediate itself (see ``IntermediateChoice``): a line to show the user.
    public let intermediateNote: String?
    /// The signature laid out once for this identity (RSA keys), so that signing costs little more than RSA itself.
    private let detachedSigner: DetachedSigner?

    /// Pairs a certificate with its key and intermediates, checking that the key belongs to the certificate.
    public init(
        certificate: Certificate, privateKey: PrivateKey, intermediates: [Certificate], intermediateNote: String? = nil,
        source: String = "the signing identity"
    ) throws(PassmintError) {
        guard certificate.matches(privateKey) else {
            throw PassmintError(
                .invalidIdentity,
                "the private key does not belong to the certificate in \(source) (\(certificate.subject)): use the key made with that certificate's CSR"
            )
        }
        self.certificate = certificate
        self.privateKey = privateKey
        self.intermediates = intermediates
        self.intermediateNote = intermediateNote
        self.detachedSigner = DetachedSigner(certificate: certificate, key: privateKey, intermediates: intermediates)
    }

    /// Loads a PEM certificate, a PEM private key (optionally encrypted) and the WWDR intermediate. The intermediate
    /// must be the one that issued the certificate; without `wwdrPath`, Passmint's copy of the Apple WWDR certificate
    /// that issued it is used (see ``IntermediateChoice``).
    public convenience init(certificatePath: String, keyPath: String, passphrase: String?, wwdrPath: String?) throws(PassmintError) {
        let certificate = try Certificate(contentsOf: certificatePath)
        let key = try PrivateKey(contentsOf: keyPath, passphrase: passphrase)
        let given = try wwdrPath.map { path throws(PassmintError) in [try Certificate(contentsOf: path)] } ?? []
        let choice = try IntermediateChoice.choose(for: certificate, given: given, source: wwdrPath ?? "the WWDR file")
        try self.init(
            certificate: certificate, privateKey: key, intermediates: choice.certificates, intermediateNote: choice.note,
            source: "\(certificatePath) / \(keyPath)")
    }

    /// Loads a PKCS#12 bundle, including the legacy RC2/3DES bundles macOS Keychain exports. Chain certificates
    /// inside the bundle are used as intermediates unless `wwdrPath` names one; they are checked against the
    /// certificate like a WWDR file (see ``IntermediateChoice``).
    public convenience init(p12Path: String, password: String?, wwdrPath: String?) throws(PassmintError) {
        let bundle = try PKCS12Bundle(contentsOf: p12Path, password: password)
        let given = try wwdrPath.map { path throws(PassmintError) in [try Certificate(contentsOf: path)] } ?? bundle.chain
        let choice = try IntermediateChoice.choose(for: bundle.certificate, given: given, source: wwdrPath ?? "the chain in \(p12Path)")
        try self.init(
            certificate: bundle.certificate, privateKey: bundle.privateKey, intermediates: choice.certificates,
            intermediateNote: choice.note, source: p12Path)
    }

    /// Checks that this identity may sign a pass with these identifiers at `date`.
    ///
    /// - Throws: ``PassmintError/Code/identityMismatch`` when the certificate's UID or OU differ from the pass,
    ///   or when the certificate is outside its validity period (unless `allowExpired`).
    public func checkCanSign(passTypeIdentifier: String, teamIdentifier: String, at date: Date = Date(), allowExpired: Bool = false)
        throws(PassmintError)
    {
        let uid = certificate.userID ?? "(none)"
        let ou = certificate.organizationalUnit ?? "(none)"
        if uid != passTypeIdentifier || ou != teamIdentifier {
            var lines = ["the signing certificate does not belong to this pass:"]
            if uid != passTypeIdentifier {
                lines.append("  passTypeIdentifier in pass.json is \"\(passTypeIdentifier)\" but the certificate's UID is \"\(uid)\"")
            }
            if ou != teamIdentifier {
                lines.append("  teamIdentifier in pass.json is \"\(teamIdentifier)\" but the certificate's OU is \"\(ou)\"")
            }
            lines.append("  fix pass.json, or sign with the Pass Type ID certificate made for \"\(passTypeIdentifier)\"")
            throw PassmintError(.identityMismatch, lines.joined(separator: "\n"))
        }
        if !allowExpired { try checkValid(at: date, signing: "passes", certificate: "Pass Type ID") }
    }

    /// Checks the certificate is within its validity period at `date`; `documents` (`passes`, `orders`) and `kind`
    /// (`Pass Type ID`, `Order Type ID`) name what it signs and what to create instead.
    ///
    /// - Throws: ``PassmintError/Code/identityMismatch`` saying when it expired, or from when it is valid.
    func checkValid(at date: Date, signing documents: String, certificate kind: String) throws(PassmintError) {
        let uid = certificate.userID ?? "(none)"
        let formatter = ISO8601DateFormatter()
        if date > certificate.notAfter {
            throw PassmintError(
                .identityMismatch,
                "the signing certificate (\(uid)) expired on \(formatter.string(from: certificate.notAfter)): Wallet refuses \(documents) signed with it. Create a new \(kind) certificate, or pass --allow-expired for a test"
            )
        }
        if date < certificate.notBefore {
            throw PassmintError(
                .identityMismatch,
                "the signing certificate (\(uid)) is not valid before \(formatter.string(from: certificate.notBefore)): check this machine's clock"
            )
        }
    }

    /// Makes the detached PKCS#7 signature Wallet expects over `content` (the exact `manifest.json` bytes):
    /// DER, SHA-256 digest, signed attributes content type, signing time and message digest, certificates = the
    /// Pass Type ID certificate plus the intermediates.
    public func signDetached(_ content: [UInt8]) throws(PassmintError) -> [UInt8] {
        if let signature = detachedSigner?.sign(content) { return signature }
        return try openSSLSignDetached(content)
    }

    /// ``signDetached(_:)`` through OpenSSL's PKCS#7 layer (keys other than RSA, and what ``DetachedSigner`` is tested
    /// against); with `signingTime`, that time is signed instead of now.
    func openSSLSignDetached(_ content: [UInt8], signingTime: Date? = nil) throws(PassmintError) -> [UInt8] {
        ERR_clear_error()
        let flags = PKCS7_DETACHED | PKCS7_BINARY | PKCS7_NOSMIMECAP
        let result: [UInt8]? = OpenSSL.withMemoryBIO(content) { input in
            guard let p7 = PKCS7_sign(nil, nil, nil, nil, flags | PKCS7_PARTIAL) else { return nil }
            defer { PKCS7_free(p7) }
            guard let signer = PKCS7_sign_add_signer(p7, certificate.pointer, privateKey.pointer, EVP_sha256(), flags) else { return nil }
            if let signingTime {
                guard let time = ASN1_TIME_set(nil, time_t(signingTime.timeIntervalSince1970.rounded(.down))) else { return nil }
                guard PKCS7_add_signed_attribute(signer, NID_pkcs9_signingTime, V_ASN1_UTCTIME, time) == 1 else {
                    ASN1_TIME_free(time)
                    return nil
                }
            }
            for intermediate in intermediates {
                guard PKCS7_add_certificate(p7, intermediate.pointer) == 1 else { return nil }
            }
            guard PKCS7_final(p7, input, flags) == 1 else { return nil }
            let output = BIO_new(BIO_s_mem())!
            defer { BIO_free(output) }
            guard i2d_PKCS7_bio(output, p7) == 1 else { return nil }
            return OpenSSL.contents(of: output)
        }
        guard let result, !result.isEmpty else {
            throw PassmintError(.signingFailed, "OpenSSL could not sign the manifest", libraryErrors: OpenSSL.drainErrors())
        }
        return result
    }
}
