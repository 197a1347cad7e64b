internal import CPassmintOpenSSL
import Dispatch
import Foundation
import Synchronization

/// Measures how fast a private key signs: the physical limit of pass issuing on this machine. For `passmint bench`:
/// not part of the library's public API.
package enum SigningSpeed {
    /// What one measurement found.
    package struct Measurement: Sendable {
        /// Signatures per second on all the threads together.
        package var perSecond: Double
        /// CPU time of one signature in seconds (the threads' own CPU clocks): unlike ``perSecond``, it does not
        /// drop when other processes share the cores.
        package var cpuSecondsPerSignature: Double
    }

    /// RSA (or EC) signatures per second of a SHA-256 digest, using `threads` threads for `seconds`, each with one
    /// signing context set up once (as pass signing does): the key's own speed.
    package static func signaturesPerSecond(key: PrivateKey, threads: Int, seconds: Double) -> Double {
        measure(key: key, threads: threads, seconds: seconds).perSecond
    }

    /// ``signaturesPerSecond(key:threads:seconds:)`` with the CPU time of a signature.
    package static func measure(key: PrivateKey, threads: Int, seconds: Double) -> Measurement {
        let total = Atomic<Int>(0)
        let cpuNanoseconds = Atomic<Int>(0)
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
            var message = [UInt8](repeating: 7, count: 32)
            var signature = [UInt8](repeating: 0, count: 1024)
            var count = 0
            let cpuStart = threadCPUNanoseconds()
            defer { cpuNanoseconds.add(threadCPUNanoseconds() - cpuStart, ordering: .relaxed) }
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
        let count = total.load(ordering: .relaxed)
        return Measurement(
            perSecond: Double(count) / elapsed,
            cpuSecondsPerSignature: count > 0 ? Double(cpuNanoseconds.load(ordering: .relaxed)) / 1e9 / Double(count) : 0)
    }

    /// CPU time the calling thread has used, in nanoseconds.
    package static func threadCPUNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
    }
}
