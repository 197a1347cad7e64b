internal import CPassmintOpenSSL
import Dispatch
import Foundation
import Synchronization

/// Measures how fast a private key signs: the physical limit of pass issuing on this machine.
public enum SigningSpeed {
    /// RSA (or EC) signatures per second with SHA-256 over 32 bytes, using `threads` threads for `seconds`.
    public static func signaturesPerSecond(key: PrivateKey, threads: Int, seconds: Double) -> Double {
        let total = Atomic<Int>(0)
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
            var message = [UInt8](repeating: 7, count: 32)
            var signature = [UInt8](repeating: 0, count: 1024)
            var count = 0
            while DispatchTime.now().uptimeNanoseconds < deadline {
                guard let context = EVP_MD_CTX_new() else { break }
                var length = signature.count
                if EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1,
                    EVP_DigestSign(context, &signature, &length, &message, message.count) == 1
                {
                    count += 1
                }
                EVP_MD_CTX_free(context)
                message[0] &+= 1
            }
            total.add(count, ordering: .relaxed)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(total.load(ordering: .relaxed)) / elapsed
    }
}
