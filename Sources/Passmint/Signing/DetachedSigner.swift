internal import CPassmintOpenSSL
import Foundation
import Synchronization

/// The detached PKCS#7 signature of ``SigningIdentity/signDetached(_:)``, written without OpenSSL's PKCS#7 layer.
///
/// For an RSA key every byte of the signature but the signing time, the manifest's digest and the RSA signature is
/// the same each time (the certificates, the issuer and serial, the algorithms, and every length: an RSA signature is
/// as long as the modulus), so the DER is encoded once; a signature then fills in the signed attributes (content
/// type, signing time, message digest, in the order DER sorts them) and signs them with a key context set up once and
/// reused (a small pool shared by the threads). The bytes are those OpenSSL's `PKCS7_sign` writes for the same
/// signing time (tested); what it saves is OpenSSL building, encoding and freeing the PKCS#7 structures and looking
/// up the algorithms per signature.
final class DetachedSigner: Sendable {
    private let key: PrivateKey
    /// The whole signature with zeros where the attributes and the RSA signature go.
    private let template: [UInt8]
    private let attributesOffset: Int
    private let signatureLength: Int
    private let contexts = Mutex<[KeyContext]>([])

    /// An `EVP_PKEY_CTX` set up to sign SHA-256 digests with PKCS#1 v1.5 padding.
    private final class KeyContext: @unchecked Sendable {
        let pointer: OpaquePointer
        init?(key: PrivateKey) {
            guard let context = EVP_PKEY_CTX_new(key.pointer, nil) else { return nil }
            guard EVP_PKEY_sign_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1,
                EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1
            else {
                EVP_PKEY_CTX_free(context)
                return nil
            }
            pointer = context
        }
        deinit { EVP_PKEY_CTX_free(pointer) }
    }

    /// Nil unless `key` is an RSA key whose signature can be laid out in advance.
    init?(certificate: Certificate, key: PrivateKey, intermediates: [Certificate]) {
        let length = Int(EVP_PKEY_get_size(key.pointer))
        guard key.algorithm == "RSA", length > 0, let issuerAndSerial = Self.issuerAndSerial(of: certificate),
            KeyContext(key: key) != nil
        else { return nil }
        let attributes = Self.attributes(time: [UInt8](repeating: 0, count: 13), digest: [UInt8](repeating: 0, count: 32))
        let signerInfo = DER.tlv(
            0x30,
            [0x02, 0x01, 0x01] + issuerAndSerial + DER.sha256 + DER.tlv(0xA0, attributes) + DER.rsaEncryption
                + DER.tlv(0x04, [UInt8](repeating: 0, count: length)))
        let certificates = ([certificate] + intermediates).flatMap(\.derBytes)
        let signedData = DER.tlv(
            0x30,
            [0x02, 0x01, 0x01] + DER.tlv(0x31, DER.sha256) + DER.tlv(0x30, DER.oid(DER.data)) + DER.tlv(0xA0, certificates)
                + DER.tlv(0x31, signerInfo))
        template = DER.tlv(0x30, DER.oid(DER.signedData) + DER.tlv(0xA0, signedData))
        signatureLength = length
        attributesOffset = template.count - length - DER.header(0x04, length).count - DER.rsaEncryption.count - attributes.count
        self.key = key
    }

    /// The signature over `content`, signed now; nil when the time cannot be a UTCTime (before 1950 or from 2050 on,
    /// where OpenSSL writes a GeneralizedTime) or OpenSSL fails.
    func sign(_ content: [UInt8], at date: Date = Date()) -> [UInt8]? {
        guard let time = Self.utcTime(date) else { return nil }
        let attributes = Self.attributes(time: time, digest: OpenSSL.sha256(content))
        // The attributes are signed as the SET they are (not with the [0] tag they carry in the signature).
        let digest = OpenSSL.sha256(DER.tlv(0x31, attributes))
        guard let context = contexts.withLock({ $0.popLast() }) ?? KeyContext(key: key) else { return nil }
        defer { contexts.withLock { if $0.count < 64 { $0.append(context) } } }
        var output = template
        var length = signatureLength
        let signed = output.withUnsafeMutableBufferPointer { buffer in
            EVP_PKEY_sign(context.pointer, buffer.baseAddress! + (buffer.count - signatureLength), &length, digest, digest.count)
        }
        guard signed == 1, length == signatureLength else { return nil }
        output.replaceSubrange(attributesOffset..<(attributesOffset + attributes.count), with: attributes)
        return output
    }

    /// The signed attributes' content, in DER order: content type (data), signing time, message digest.
    private static func attributes(time: [UInt8], digest: [UInt8]) -> [UInt8] {
        DER.tlv(0x30, DER.oid(DER.contentType) + DER.tlv(0x31, DER.oid(DER.data)))
            + DER.tlv(0x30, DER.oid(DER.signingTime) + DER.tlv(0x31, DER.tlv(0x17, time)))
            + DER.tlv(0x30, DER.oid(DER.messageDigest) + DER.tlv(0x31, DER.tlv(0x04, digest)))
    }

    /// `YYMMDDHHMMSSZ` in UTC, for 1950 to 2049.
    static func utcTime(_ date: Date) -> [UInt8]? {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        let year = Int(parts.tm_year) + 1900
        guard (1950..<2050).contains(year) else { return nil }
        let fields = [year % 100, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)]
        return fields.flatMap { [UInt8(48 + $0 / 10), UInt8(48 + $0 % 10)] } + [UInt8(ascii: "Z")]
    }

    /// The DER SEQUENCE of the certificate's issuer name and serial number.
    private static func issuerAndSerial(of certificate: Certificate) -> [UInt8]? {
        var name: UnsafeMutablePointer<UInt8>?
        let nameLength = i2d_X509_NAME(X509_get_issuer_name(certificate.pointer), &name)
        guard nameLength > 0, let name else { return nil }
        defer { cpassmint_OPENSSL_free(name) }
        var serial: UnsafeMutablePointer<UInt8>?
        let serialLength = i2d_ASN1_INTEGER(X509_get_serialNumber(certificate.pointer), &serial)
        guard serialLength > 0, let serial else { return nil }
        defer { cpassmint_OPENSSL_free(serial) }
        return DER.tlv(
            0x30,
            Array(UnsafeBufferPointer(start: name, count: Int(nameLength)))
                + Array(UnsafeBufferPointer(start: serial, count: Int(serialLength))))
    }
}

/// The little DER a detached signature needs.
enum DER {
    static let signedData: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let data: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    static let contentType: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]
    static let messageDigest: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04]
    static let signingTime: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05]
    /// AlgorithmIdentifier sha256 with NULL parameters.
    static let sha256 = tlv(0x30, oid([0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]) + [0x05, 0x00])
    /// AlgorithmIdentifier rsaEncryption with NULL parameters.
    static let rsaEncryption = tlv(0x30, oid([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]) + [0x05, 0x00])

    static func oid(_ body: [UInt8]) -> [UInt8] { tlv(0x06, body) }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { header(tag, content.count) + content }

    /// A tag and a definite length.
    static func header(_ tag: UInt8, _ length: Int) -> [UInt8] {
        guard length >= 0x80 else { return [tag, UInt8(length)] }
        var bytes: [UInt8] = []
        var rest = length
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [tag, 0x80 | UInt8(bytes.count)] + bytes
    }
}
