internal import CPassmintOpenSSL
public import Foundation

/// Thin helpers over libcrypto shared by the certificate, key and signing wrappers.
package enum OpenSSL {
    /// Empties this thread's OpenSSL error queue into readable strings. Call it in the same synchronous
    /// function as the failing C call: the queue is per thread.
    package static func drainErrors() -> [String] {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { return messages }
            messages.append(
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
                    ERR_error_string_n(code, buffer.baseAddress, buffer.count)
                    return String(cString: buffer.baseAddress!)
                })
        }
    }

    /// Runs `body` with a read-only memory BIO over `bytes`. Nil, without calling `body`, when `bytes` are more than
    /// a memory BIO can hold (2 GiB: its length is a C `int`) or the BIO cannot be made.
    package static func withMemoryBIO<R>(_ bytes: some ContiguousBytes, _ body: (OpaquePointer) throws -> R?) rethrows -> R? {
        try bytes.withUnsafeBytes { raw in
            guard raw.count <= Int(Int32.max), let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Copies everything written to a memory BIO.
    static func contents(of bio: OpaquePointer) -> [UInt8] {
        var pointer: UnsafeMutablePointer<CChar>?
        let length = cpassmint_BIO_get_mem_data(bio, &pointer)
        guard let pointer, length > 0 else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// Loads the default and legacy providers once, so `.p12` files exported by macOS Keychain (RC2/3DES)
    /// open under OpenSSL 3.
    static let legacyProviderLoaded: Bool = {
        _ = OSSL_PROVIDER_load(nil, "default")
        return OSSL_PROVIDER_load(nil, "legacy") != nil
    }()

    static func digest(_ bytes: some ContiguousBytes, algorithm: OpaquePointer) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBytes { raw in
            _ = EVP_Digest(raw.baseAddress, raw.count, &output, &length, algorithm, nil)
        }
        return Array(output.prefix(Int(length)))
    }

    static func sha1(_ bytes: some ContiguousBytes) -> [UInt8] { digest(bytes, algorithm: EVP_sha1()) }
    package static func sha256(_ bytes: some ContiguousBytes) -> [UInt8] { digest(bytes, algorithm: EVP_sha256()) }

    /// Cryptographically secure random bytes.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = RAND_bytes(&bytes, Int32(count))
        precondition(status == 1, "OpenSSL's random generator failed")
        return bytes
    }
}

/// The bytes that hexadecimal text (either case, an even number of digits) stands for; nil for anything else, and for
/// empty text.
package func hexBytes(_ text: some StringProtocol) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
    func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
        bytes.append(high << 4 | low)
    }
    return bytes
}

/// Lowercase hexadecimal text for a digest.
package func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var output = [UInt8]()
    output.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: output, as: UTF8.self)
}

/// Hashes used in pass packages.
public enum Digest {
    /// Lowercase hex SHA-1, the hash `manifest.json` uses.
    public static func sha1Hex(_ bytes: some ContiguousBytes) -> String { hexString(OpenSSL.sha1(bytes)) }
    /// Lowercase hex SHA-256.
    public static func sha256Hex(_ bytes: some ContiguousBytes) -> String { hexString(OpenSSL.sha256(bytes)) }
    /// HMAC-SHA256 of `message` under `key` (RFC 2104), 32 bytes.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.bindMemory(to: UInt8.self).baseAddress,
                    messageBytes.count, &output, &length)
            }
        }
        precondition(result != nil, "OpenSSL's HMAC failed")
        return Array(output.prefix(Int(length)))
    }
}

/// SHA-256 of data that often starts with the same prefix: the prefix is hashed once, and each digest continues
/// from a copy of that state. Immutable after init; copies of the state may be taken from many threads.
final class PrefixedSHA256: @unchecked Sendable {
    private let prefix: [UInt8]
    private let context: OpaquePointer

    init?(prefix: [UInt8]) {
        guard !prefix.isEmpty, let context = EVP_MD_CTX_new() else { return nil }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, EVP_DigestUpdate(context, prefix, prefix.count) == 1 else {
            EVP_MD_CTX_free(context)
            return nil
        }
        self.prefix = prefix
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    func sha256Hex(_ bytes: [UInt8]) -> String {
        guard bytes.count >= prefix.count,
            bytes.withUnsafeBytes({ data in prefix.withUnsafeBytes { memcmp(data.baseAddress!, $0.baseAddress!, $0.count) == 0 } })
        else { return Digest.sha256Hex(bytes) }
        return bytes.withUnsafeBytes { finish(UnsafeRawBufferPointer(rebasing: $0[prefix.count...])) } ?? Digest.sha256Hex(bytes)
    }

    /// The digest of the prefix followed by `tail`; nil when OpenSSL fails.
    func sha256Hex(continuingWith tail: [UInt8]) -> String? {
        tail.withUnsafeBytes { finish($0) }
    }

    private func finish(_ tail: UnsafeRawBufferPointer) -> String? {
        guard let copy = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(copy) }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok =
            EVP_MD_CTX_copy_ex(copy, context) == 1 && EVP_DigestUpdate(copy, tail.baseAddress, tail.count) == 1
            && EVP_DigestFinal_ex(copy, &output, &length) == 1
        return ok ? hexString(Array(output.prefix(Int(length)))) : nil
    }
}
