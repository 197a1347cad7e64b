internal import CPassmintOpenSSL

extension PrivateKey {
    /// Signs `message` with SHA-256 through OpenSSL's one-shot `EVP_DigestSign`: for an RSA key the raw PKCS #1 v1.5
    /// signature, for an EC key a DER `ECDSA-Sig-Value`. `algorithm` names it in an error ("ES256").
    func signSHA256(_ message: [UInt8], algorithm: String) throws(PassmintError) -> [UInt8] {
        ERR_clear_error()
        guard let context = EVP_MD_CTX_new() else { throw PassmintError(.signingFailed, "OpenSSL could not allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        func digestSign(_ output: UnsafeMutablePointer<UInt8>?, _ length: inout Int) -> Int32 {
            message.withUnsafeBytes { EVP_DigestSign(context, output, &length, $0.bindMemory(to: UInt8.self).baseAddress, message.count) }
        }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1, digestSign(nil, &length) == 1 else {
            throw PassmintError(.signingFailed, "\(algorithm) signing failed", libraryErrors: OpenSSL.drainErrors())
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard signature.withUnsafeMutableBufferPointer({ digestSign($0.baseAddress, &length) }) == 1 else {
            throw PassmintError(.signingFailed, "\(algorithm) signing failed", libraryErrors: OpenSSL.drainErrors())
        }
        signature.removeSubrange(length...)
        return signature
    }
}
