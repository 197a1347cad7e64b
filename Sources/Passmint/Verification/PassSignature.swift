internal import CPassmintOpenSSL
public import Foundation

/// What a pass's `signature` file holds, read with OpenSSL's CMS parser (DER and BER both accepted).
public struct SignatureInspection: Sendable {
    /// `DER` or `BER (indefinite lengths)`.
    public var encoding: String
    /// Whether the signed content is left out (detached), as Wallet requires.
    public var isDetached: Bool
    /// Digest algorithm of the signer, e.g. `SHA256` or `SHA1`.
    public var digestAlgorithm: String
    /// `issuerAndSerialNumber` (CMS version 1) or `subjectKeyIdentifier` (CMS version 3).
    public var signerIdentifier: String
    /// The signing-time attribute, when present.
    public var signingTime: Date?
    /// Whether the signature verifies over the manifest bytes with the signer certificate it carries.
    public var verifies: Bool
    /// OpenSSL's reason when it does not.
    public var verificationError: String?
    /// The signer certificate, when it could be found among the certificates.
    public var signer: Certificate?
    /// Every certificate in the signature other than the signer.
    public var otherCertificates: [Certificate]
    public var signerCount: Int
    /// The SignedData's `eContentType`: `pkcs7-data` (id-data) for a pass signature; anything else means the
    /// signature is over some other kind of content and Wallet refuses it.
    public var contentType: String
}

package enum PassSignature {
    /// Parses and verifies a detached CMS signature over `content`. Nil when `bytes` is not CMS at all.
    package static func inspect(_ bytes: [UInt8], content: [UInt8]) -> SignatureInspection? {
        ERR_clear_error()
        let cms: OpaquePointer? = OpenSSL.withMemoryBIO(bytes) { d2i_CMS_bio($0, nil) }
        guard let cms else {
            ERR_clear_error()
            return nil
        }
        defer { CMS_ContentInfo_free(cms) }
        let encoding = DERScanner.encoding(of: bytes)
        let contentTypeNID = CMS_get0_eContentType(cms).map { OBJ_obj2nid($0) } ?? NID_undef
        let contentType = contentTypeNID == NID_undef ? "an unknown type" : String(cString: OBJ_nid2sn(contentTypeNID))
        let contentPointer = CMS_get0_content(cms)
        let detached = contentPointer == nil || contentPointer!.pointee == nil

        var certificates: [Certificate] = []
        if let stack = CMS_get1_certs(cms) {
            for index in 0..<cpassmint_sk_X509_num(stack) {
                if let x509 = cpassmint_sk_X509_value(stack, index) {
                    X509_up_ref(x509)
                    certificates.append(Certificate(taking: x509))
                }
            }
            cpassmint_sk_X509_pop_free(stack)
        }

        var digest = "unknown"
        var identifier = "unknown"
        var signingTime: Date?
        var signer: Certificate?
        var signerCount = 0
        if let infos = CMS_get0_SignerInfos(cms) {
            signerCount = Int(cpassmint_sk_CMS_SignerInfo_num(infos))
            if signerCount > 0, let info = cpassmint_sk_CMS_SignerInfo_value(infos, 0) {
                var digestAlgorithm: UnsafeMutablePointer<X509_ALGOR>?
                CMS_SignerInfo_get0_algs(info, nil, nil, &digestAlgorithm, nil)
                if let digestAlgorithm {
                    var object: OpaquePointer?
                    X509_ALGOR_get0(&object, nil, nil, digestAlgorithm)
                    let nid = OBJ_obj2nid(object)
                    digest =
                        nid == NID_undef ? "unknown" : String(cString: OBJ_nid2sn(nid)).uppercased().replacingOccurrences(of: "-", with: "")
                }
                var keyID: UnsafeMutablePointer<ASN1_OCTET_STRING>?
                var issuer: OpaquePointer?
                var serial: UnsafeMutablePointer<ASN1_INTEGER>?
                if CMS_SignerInfo_get0_signer_id(info, &keyID, &issuer, &serial) == 1 {
                    identifier = keyID != nil ? "subjectKeyIdentifier (CMS v3)" : "issuerAndSerialNumber (CMS v1)"
                }
                let attributeIndex = CMS_signed_get_attr_by_NID(info, NID_pkcs9_signingTime, -1)
                if attributeIndex >= 0, let attribute = CMS_signed_get_attr(info, attributeIndex),
                    let type = X509_ATTRIBUTE_get0_type(attribute, 0)
                {
                    if type.pointee.type == V_ASN1_UTCTIME || type.pointee.type == V_ASN1_GENERALIZEDTIME {
                        signingTime = Certificate.date(UnsafePointer(type.pointee.value.utctime))
                    }
                }
                signer = certificates.first { CMS_SignerInfo_cert_cmp(info, $0.pointer) == 0 }
            }
        }

        ERR_clear_error()
        let flags = UInt32(CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY)
        let verified = OpenSSL.withMemoryBIO(content) { CMS_verify(cms, nil, nil, $0, nil, flags) == 1 } ?? false
        let error = verified ? nil : OpenSSL.drainErrors().joined(separator: "; ")
        let others = certificates.filter { certificate in signer.map { X509_cmp($0.pointer, certificate.pointer) != 0 } ?? true }
        return SignatureInspection(
            encoding: encoding.rawValue, isDetached: detached, digestAlgorithm: digest, signerIdentifier: identifier,
            signingTime: signingTime, verifies: verified, verificationError: error, signer: signer, otherCertificates: others,
            signerCount: signerCount, contentType: contentType)
    }

    /// Verifies `leaf` up to `root` using `intermediates`, at `time`. Returns nil on success, else OpenSSL's reason.
    package static func verifyChain(leaf: Certificate, intermediates: [Certificate], root: Certificate, at time: Date?) -> String? {
        guard let store = X509_STORE_new() else { return "cannot create a certificate store" }
        defer { X509_STORE_free(store) }
        X509_STORE_add_cert(store, root.pointer)
        guard let context = X509_STORE_CTX_new() else { return "cannot create a verification context" }
        defer { X509_STORE_CTX_free(context) }
        let untrusted = cpassmint_sk_X509_new_null()
        defer { cpassmint_sk_X509_free(untrusted) }
        for certificate in intermediates { _ = cpassmint_sk_X509_push(untrusted, certificate.pointer) }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else { return "cannot initialise verification" }
        if let time { X509_STORE_CTX_set_time(context, 0, time_t(time.timeIntervalSince1970)) }
        let result = X509_verify_cert(context)
        ERR_clear_error()
        if result == 1 { return nil }
        return String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context))))
    }

    /// Whether `issuer` issued `certificate`: the names and key identifiers match, and the certificate's signature
    /// verifies with the issuer's public key (a look-alike name alone is not enough).
    static func issued(_ issuer: Certificate, _ certificate: Certificate) -> Bool {
        defer { ERR_clear_error() }
        guard X509_check_issued(issuer.pointer, certificate.pointer) == X509_V_OK, let key = X509_get0_pubkey(issuer.pointer) else {
            return false
        }
        return X509_verify(certificate.pointer, key) == 1
    }
}
