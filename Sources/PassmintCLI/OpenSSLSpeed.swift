import Foundation
import Passmint

/// `openssl speed` for the same algorithm and key size as the signing key: the speed of the key on this machine as
/// OpenSSL's own benchmark sees it, one of the limits `passmint bench` prints next to the batch.
enum OpenSSLSpeed {
    /// The `openssl speed` algorithm for a key: rsa2048, ecdsap256, …; nil when it has none.
    static func algorithm(for key: PrivateKey) -> String? {
        switch (key.algorithm, key.bits) {
        case ("RSA", let bits) where [1024, 2048, 3072, 4096, 7680, 15360].contains(bits): "rsa\(bits)"
        case ("EC", 256): "ecdsap256"
        case ("EC", 384): "ecdsap384"
        case ("EC", 521): "ecdsap521"
        default: nil
        }
    }

    /// Signatures per second on `jobs` processes (`openssl speed -multi`), measured for `seconds`; nil when the
    /// `openssl` command is missing or its output cannot be read.
    static func signaturesPerSecond(key: PrivateKey, jobs: Int, seconds: Int) -> (algorithm: String, rate: Double)? {
        guard let algorithm = algorithm(for: key) else { return nil }
        let multi = jobs > 1 ? " -multi \(jobs)" : ""
        guard let pipe = popen("openssl speed -seconds \(max(1, seconds))\(multi) -mr \(algorithm) 2>/dev/null", "r") else { return nil }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = fread(&buffer, 1, buffer.count, pipe)
            if read <= 0 { break }
            output += buffer[0..<read]
        }
        guard pclose(pipe) == 0 else { return nil }
        return parse(String(decoding: output, as: UTF8.self)).map { (algorithm, $0) }
    }

    /// The total sign/s of `openssl speed -mr` output: the last `+F2:` (RSA) or `+F4:` (ECDSA) line that is not a
    /// child's ("Got: … from N"), whose fourth field is signatures per second.
    static func parse(_ output: String) -> Double? {
        let lines = output.split(separator: "\n").filter { $0.hasPrefix("+F2:") || $0.hasPrefix("+F4:") }
        guard let fields = lines.last?.split(separator: ":"), fields.count >= 5, let rate = Double(fields[3]), rate > 0 else { return nil }
        return rate
    }
}
