internal import CPassmintOpenSSL
import Dispatch
import Foundation
import Synchronization

/// Measures how fast a private key signs: the physical limit of pass issuing on this machine. For `passmint bench`:
/// not part of the library's public API.
package enum SigningSpeed {
    /// RSA (or EC) signatures per second of a SHA-256 digest, using `threads` threads for `seconds`, each with one
    /// signing context set up once (as pass signing does): the key's own speed.
    package static func signaturesPerSecond(key: PrivateKey, threads: Int, seconds: Double) -> Double {
        let total = Atomic<Int>(0)
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
            var message = [UInt8](repeating: 7, count: 32)
            var signature = [UInt8](repeating: 0, count: 1024)
            var count = 0
            guard let context = EVP_PKEY_CTX_new(key.pointer, nil) else { return }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_sign_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1,
                key.algorithm != "RSA" || EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1
            else { return }
            while DispatchTime.now().uptimeNanoseconds < deadline {
                var length = signature.count
                if EVP_PKEY_sign(context, &signature, &length, &message, message.count) == 1 { count += 1 }
                message[0] &+= 1
            }
            total.add(count, ordering: .relaxed)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(total.load(ordering: .relaxed)) / elapsed
    }
}
