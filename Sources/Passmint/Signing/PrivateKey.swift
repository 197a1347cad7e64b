internal import CPassmintOpenSSL
import Foundation

/// A private key loaded with OpenSSL, parsed once and reused for every signature.
///
/// Immutable after loading; OpenSSL 3 allows concurrent signing with one `EVP_PKEY`.
public final class PrivateKey: @unchecked Sendable {
    package let pointer: OpaquePointer

    package init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// Reads a PEM private key (PKCS#8, encrypted PKCS#8, or traditional RSA/EC), decrypting it with
    /// `passphrase` when it is encrypted. `source` names the file in errors.
    public convenience init(pemBytes: [UInt8], passphrase: String?, source: String) throws(PassmintError) {
        let text = String(decoding: pemBytes.prefix(4096), as: UTF8.self)
        let encrypted = text.contains("ENCRYPTED")
        if encrypted && passphrase == nil {
            throw PassmintError(
                .invalidIdentity,
                "\(source) is encrypted: give its passphrase with --passphrase-env VAR (a variable holding it) or --passphrase-file FILE")
        }
        ERR_clear_error()
        // Our callback never prompts: it copies the passphrase given as user data, or returns 0 when there is none.
        let callback: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
            buffer, size, _, userData in
            guard let buffer, let userData else { return 0 }
            let passphrase = userData.assumingMemoryBound(to: CChar.self)
            let length = Int32(strlen(passphrase))
            guard length < size else { return 0 }
            memcpy(buffer, passphrase, Int(length))
            return length
        }
        var secret = Array((passphrase ?? "").utf8CString)
        defer { secret.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let key: OpaquePointer? = OpenSSL.withMemoryBIO(pemBytes) { bio in
            secret.withUnsafeMutableBufferPointer { buffer in
                PEM_read_bio_PrivateKey(bio, nil, callback, passphrase == nil ? nil : UnsafeMutableRawPointer(buffer.baseAddress))
            }
        }
        guard let key else {
            let errors = OpenSSL.drainErrors()
            if encrypted {
                throw PassmintError(
                    .invalidIdentity,
                    "wrong passphrase for \(source): check the passphrase given with --passphrase-env or --passphrase-file",
                    libraryErrors: errors)
            }
            throw PassmintError(
                .invalidIdentity,
                "\(source) is not a PEM private key (expected '-----BEGIN PRIVATE KEY-----' or '-----BEGIN RSA PRIVATE KEY-----')",
                libraryErrors: errors)
        }
        self.init(taking: key)
    }

    /// Reads a PEM private key file.
    public convenience init(contentsOf path: String, passphrase: String?) throws(PassmintError) {
        let bytes = try FileIO.read(path, what: "private key")
        try self.init(pemBytes: bytes, passphrase: passphrase, source: path)
    }

    /// Key size in bits (2048 for a Pass Type ID key).
    public var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// The key's algorithm as OpenSSL names it: "RSA" for a Pass Type ID key, "EC" for an elliptic-curve key.
    public var algorithm: String {
        guard let name = EVP_PKEY_get0_type_name(pointer) else { return "unknown" }
        return String(cString: name)
    }
}
