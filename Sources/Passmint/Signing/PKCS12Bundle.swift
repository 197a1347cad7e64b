internal import CPassmintOpenSSL
import Foundation

/// The contents of a PKCS#12 (`.p12`) bundle: certificate, private key, chain, and how it is encrypted.
public struct PKCS12Bundle: Sendable {
    public var certificate: Certificate
    public var privateKey: PrivateKey
    /// Chain certificates stored in the bundle (often the WWDR intermediate).
    public var chain: [Certificate]
    /// The encryption of the certificate safe, e.g. `pbeWithSHA1And40BitRC2-CBC` or `PBES2 (AES-256-CBC)`.
    public var encryption: String
    /// Whether the bundle uses the old PKCS#12 ciphers macOS Keychain writes (RC2/3DES), which OpenSSL 3 reads
    /// only with its legacy provider. Passmint loads that provider itself.
    public var usesLegacyCipher: Bool

    /// Opens a bundle. `source` names it in errors.
    public init(bytes: [UInt8], password: String?, source: String) throws(PassmintError) {
        _ = OpenSSL.legacyProviderLoaded
        ERR_clear_error()
        var key: OpaquePointer?
        var cert: OpaquePointer?
        var stack: OpaquePointer?
        var encryptionNID: Int32 = 0
        var cipherNID: Int32 = 0
        let parsed: Bool = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let p12 = d2i_PKCS12(nil, &cursor, buffer.count) else { return false }
            defer { PKCS12_free(p12) }
            let ok = PKCS12_parse(p12, password ?? "", &key, &cert, &stack) == 1
            if ok { encryptionNID = cpassmint_PKCS12_encryption_nid(p12, &cipherNID) }
            return ok
        }
        guard parsed, let key, let cert else {
            let errors = OpenSSL.drainErrors()
            let badPassword = errors.contains { $0.contains("mac verify failure") || $0.contains("bad decrypt") }
            let message =
                switch (badPassword, password == nil) {
                case (true, true): "\(source) needs a password: give --passphrase-env VAR (a variable holding it) or --passphrase-file FILE"
                case (true, false): "wrong password for \(source): check the password given with --passphrase-env or --passphrase-file"
                default: "\(source) is not a readable PKCS#12 bundle with a certificate and a private key"
                }
            throw PassmintError(.invalidIdentity, message, libraryErrors: errors)
        }
        var chain: [Certificate] = []
        if let stack {
            for index in 0..<cpassmint_sk_X509_num(stack) {
                if let x509 = cpassmint_sk_X509_value(stack, index) {
                    X509_up_ref(x509)
                    chain.append(Certificate(taking: x509))
                }
            }
            cpassmint_sk_X509_pop_free(stack)
        }
        self.certificate = Certificate(taking: cert)
        self.privateKey = PrivateKey(taking: key)
        self.chain = chain
        func name(_ nid: Int32) -> String { nid == 0 ? "none" : String(cString: OBJ_nid2ln(nid)) }
        if encryptionNID == NID_pbes2 {
            encryption = "PBES2 (\(name(cipherNID)))"
            usesLegacyCipher = cipherNID == NID_rc2_cbc || cipherNID == NID_des_ede3_cbc || cipherNID == NID_rc2_40_cbc
        } else {
            encryption = name(encryptionNID)
            usesLegacyCipher = encryptionNID != 0
        }
    }

    /// Opens a bundle file.
    public init(contentsOf path: String, password: String?) throws(PassmintError) {
        try self.init(bytes: try FileIO.read(path, what: ".p12 bundle"), password: password, source: path)
    }
}

extension Certificate {
    /// The certificate as PEM text.
    public var pem: String {
        let bio = BIO_new(BIO_s_mem())!
        defer { BIO_free(bio) }
        PEM_write_bio_X509(bio, pointer)
        return String(decoding: OpenSSL.contents(of: bio), as: UTF8.self)
    }
}

extension PrivateKey {
    /// The key as unencrypted PKCS#8 PEM. Write it only to a file of mode 0600.
    public var unencryptedPEM: [UInt8] {
        let bio = BIO_new(BIO_s_mem())!
        defer { BIO_free(bio) }
        PEM_write_bio_PKCS8PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        return OpenSSL.contents(of: bio)
    }
}
