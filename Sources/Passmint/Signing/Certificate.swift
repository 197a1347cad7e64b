internal import CPassmintOpenSSL
public import Foundation

/// An X.509 certificate loaded with OpenSSL.
///
/// Immutable after loading, so it is safe to share between threads.
public final class Certificate: @unchecked Sendable {
    package let pointer: OpaquePointer

    package init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_free(pointer) }

    /// Reads the first certificate of a PEM or DER file's bytes. `source` names the file in errors.
    public convenience init(bytes: [UInt8], source: String) throws(PassmintError) {
        ERR_clear_error()
        let x509: OpaquePointer? = OpenSSL.withMemoryBIO(bytes) { bio in
            if let pem = PEM_read_bio_X509(bio, nil, nil, nil) { return pem }
            ERR_clear_error()
            return bytes.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_X509(nil, &cursor, buffer.count)
            }
        }
        guard let x509 else {
            throw PassmintError(
                .invalidIdentity,
                "\(source) is not a certificate (expected PEM '-----BEGIN CERTIFICATE-----' or DER). Convert a .cer with: openssl x509 -inform DER -in file.cer -out file.pem",
                libraryErrors: OpenSSL.drainErrors())
        }
        self.init(taking: x509)
    }

    /// Reads a certificate file (PEM or DER).
    public convenience init(contentsOf path: String) throws(PassmintError) {
        let bytes = try FileIO.read(path, what: "certificate")
        try self.init(bytes: bytes, source: path)
    }

    /// The subject's attribute with the given NID, e.g. `NID_userId`.
    private func nameEntry(_ name: OpaquePointer?, nid: Int32) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else {
            return nil
        }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else { return nil }
        defer { cpassmint_OPENSSL_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    /// The subject's UID: for a Pass Type ID certificate, the pass type identifier.
    public var userID: String? { nameEntry(X509_get_subject_name(pointer), nid: NID_userId) }
    /// The subject's OU: for a Pass Type ID certificate, the team identifier.
    public var organizationalUnit: String? { nameEntry(X509_get_subject_name(pointer), nid: NID_organizationalUnitName) }
    /// The subject's CN.
    public var commonName: String? { nameEntry(X509_get_subject_name(pointer), nid: NID_commonName) }
    /// The issuer's CN.
    public var issuerCommonName: String? { nameEntry(X509_get_issuer_name(pointer), nid: NID_commonName) }
    /// The issuer's OU (`G4` for Apple's WWDR G4).
    public var issuerOrganizationalUnit: String? { nameEntry(X509_get_issuer_name(pointer), nid: NID_organizationalUnitName) }

    private static func oneLine(_ name: OpaquePointer?) -> String {
        guard let name else { return "" }
        let bio = BIO_new(BIO_s_mem())!
        defer { BIO_free(bio) }
        X509_NAME_print_ex(bio, name, 0, cpassmint_XN_FLAG_RFC2253())
        return String(decoding: OpenSSL.contents(of: bio), as: UTF8.self)
    }

    /// The subject in RFC 2253 form.
    public var subject: String { Self.oneLine(X509_get_subject_name(pointer)) }
    /// The issuer in RFC 2253 form.
    public var issuer: String { Self.oneLine(X509_get_issuer_name(pointer)) }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var value = tm()
        guard let time, ASN1_TIME_to_tm(time, &value) == 1 else { return .distantPast }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&value)))
    }

    /// Start of validity.
    public var notBefore: Date { Self.date(X509_get0_notBefore(pointer)) }
    /// End of validity.
    public var notAfter: Date { Self.date(X509_get0_notAfter(pointer)) }

    /// DER encoding.
    public var derBytes: [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(pointer, &output)
        guard length > 0, let output else { return [] }
        defer { cpassmint_OPENSSL_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// SHA-256 fingerprint as colon-separated uppercase hex, as `openssl x509 -fingerprint -sha256` prints it.
    public var sha256Fingerprint: String {
        OpenSSL.sha256(derBytes).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The DER SubjectPublicKeyInfo of the certificate's public key.
    package var publicKeyDER: [UInt8] {
        guard let key = X509_get0_pubkey(pointer) else { return [] }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key, &output)
        guard length > 0, let output else { return [] }
        defer { cpassmint_OPENSSL_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// The value (the content of its OCTET STRING) of the extension with the dotted object identifier `oid`; nil when
    /// the certificate has no such extension.
    package func extensionValue(oid: String) -> [UInt8]? {
        guard let object = OBJ_txt2obj(oid, 1) else { return nil }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(pointer, object, -1)
        guard index >= 0, let found = X509_get_ext(pointer, index), let data = X509_EXTENSION_get_data(found) else { return nil }
        guard let bytes = ASN1_STRING_get0_data(data) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))))
    }

    /// Whether `key` is the private key of this certificate.
    package func matches(_ key: PrivateKey) -> Bool {
        let result = X509_check_private_key(pointer, key.pointer) == 1
        ERR_clear_error()
        return result
    }
}
