import ArgumentParser
import Foundation
import Passmint
import PassmintPay

struct PayBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Apple Pay tokens verified and decrypted per second against the raw cryptography, in the same run.",
        discussion: """
            For each token: --iterations times the raw ceiling with libcrypto directly (the token's key agreement: one \
            P-256 ECDH derive for EC_v1, one RSA-OAEP unwrap for RSA_v1; one ECDSA P-256 SHA-256 verification of as many \
            bytes as Apple signs; one AES-GCM open of its data), then --iterations times the whole of `passmint pay \
            decrypt` (parse, CMS signature and chain, signing time, key, decrypt, payment data), then the ceiling again; \
            on one thread. Prints tokens/s, the ceiling's operations/s (the mean of before and after), their ratio, and \
            the p50 and p99 latency of each. Each token is verified at its own signing time, so that its certificates \
            never expire in the bench. The test tokens of Tests/ApplePay/make_tokens.py need --test-only-root.
            """
    )

    @Argument(help: ArgumentHelp("Token JSON files (whole PKPaymentToken or paymentData).", valueName: "token.json"))
    var tokens: [String]

    @OptionGroup(title: "Merchant keys") var merchant: MerchantKeyOptions

    @Option(help: "Times each token is decrypted (and the ceiling run before and after).") var iterations = 2_000

    @Option(
        name: .customLong("test-only-root"),
        help: ArgumentHelp(
            "FOR TESTS AND BENCHES ONLY: trust this root instead of Apple Root CA - G3.", valueName: "pem", visibility: .hidden))
    var testOnlyRoot: String?

    @Flag(help: "Print the figures as JSON.") var json = false

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("--iterations \(iterations): give at least 1") }
    }

    func run() async throws {
        let keys = try merchant.merchantKeys()
        let verifier =
            try testOnlyRoot.map { PaymentSignatureVerifier(testOnlyRoot: try Certificate(contentsOf: $0)) } ?? PaymentSignatureVerifier()
        let decryptor = try PaymentTokenDecryptor(merchantKeys: keys, verifier: verifier)
        var results: [PayBenchFigures] = []
        for path in tokens {
            let bytes = try FileIO.readText(path, what: "payment token")
            let token = try PaymentToken(json: bytes)
            guard let signingTime = PassSignature.inspect(token.signature, content: token.signedBytes)?.signingTime else {
                throw ValidationError("\(path): its signature has no CMS signing time to verify it at")
            }
            let key = try decryptor.key(for: token)
            _ = try decryptor.decrypt(json: bytes, at: signingTime)  // fails here, with its reason, rather than in the loop
            guard let ceiling = PaymentCryptoCeiling(token: token, key: key), ceiling.run() else {
                throw ValidationError("\(path): libcrypto could not run the raw operations for this token")
            }
            let before = try Self.time(iterations) { guard ceiling.run() else { throw ExitCode(1) } }
            let decrypted = try Self.time(iterations) { _ = try decryptor.decrypt(json: bytes, at: signingTime) }
            let after = try Self.time(iterations) { guard ceiling.run() else { throw ExitCode(1) } }
            results.append(
                PayBenchFigures(
                    path: path, version: token.version.rawValue, dataBytes: token.data.count, signingTime: signingTime,
                    iterations: iterations, tokens: decrypted, rawBefore: before, rawAfter: after))
        }
        if json {
            print(JSONWriter.string(.array(results.map(\.json))), terminator: "")
        } else {
            for figures in results { figures.printText() }
        }
    }

    /// Runs `work` `count` times on this thread; each run's nanoseconds.
    static func time(_ count: Int, _ work: () throws -> Void) throws -> [Double] {
        var nanoseconds: [Double] = []
        nanoseconds.reserveCapacity(count)
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            try work()
            nanoseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        return nanoseconds
    }
}

/// What `passmint pay bench` measured for one token.
struct PayBenchFigures {
    var path: String
    var version: String
    var dataBytes: Int
    var signingTime: Date
    var iterations: Int
    /// Nanoseconds of each decryption, and of each raw operation before and after them.
    var tokens: [Double]
    var rawBefore: [Double]
    var rawAfter: [Double]

    static func perSecond(_ nanoseconds: [Double]) -> Double { Double(nanoseconds.count) / (nanoseconds.reduce(0, +) / 1e9) }
    static func percentile(_ nanoseconds: [Double], _ fraction: Double) -> Double {
        let sorted = nanoseconds.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)] / 1e3
    }

    var tokensPerSecond: Double { Self.perSecond(tokens) }
    var rawPerSecond: Double { (Self.perSecond(rawBefore) + Self.perSecond(rawAfter)) / 2 }
    var agreement: String { version == "EC_v1" ? "ECDH P-256" : "RSA-OAEP unwrap" }

    func printText() {
        let micros = { (value: Double) in String(format: "%.1f", value) }
        print(
            "token               \(path) (\(version), \(dataBytes) bytes of data, verified at its signing time \(RFC3339Date.string(from: signingTime)))"
        )
        print("iterations          \(iterations), one thread")
        print(
            "raw ceiling         \(Int(rawPerSecond)) ops/s (\(agreement) + ECDSA P-256 SHA-256 verify + AES-GCM; \(Int(Self.perSecond(rawBefore))) before, \(Int(Self.perSecond(rawAfter))) after)"
        )
        print("tokens/s            \(Int(tokensPerSecond)) verified and decrypted")
        print("ratio to raw        \(String(format: "%.3f", tokensPerSecond / rawPerSecond))")
        print("token latency       p50 \(micros(Self.percentile(tokens, 0.5))) µs, p99 \(micros(Self.percentile(tokens, 0.99))) µs")
        let raw = rawBefore + rawAfter
        print("raw latency         p50 \(micros(Self.percentile(raw, 0.5))) µs, p99 \(micros(Self.percentile(raw, 0.99))) µs")
    }

    var json: JSONValue {
        func number(_ value: Double, _ scale: Double = 10) -> JSONValue { .number(JSONNumber((value * scale).rounded() / scale)) }
        let raw = rawBefore + rawAfter
        return [
            "token": .string(path), "version": .string(version), "dataBytes": .number(JSONNumber(dataBytes)),
            "verifiedAt": .string(RFC3339Date.string(from: signingTime)), "iterations": .number(JSONNumber(iterations)),
            "tokensPerSecond": number(tokensPerSecond), "rawOperationsPerSecond": number(rawPerSecond),
            "rawOperation": .string("\(agreement) + ECDSA P-256 SHA-256 verify + AES-GCM"),
            "ratioToRaw": number(tokensPerSecond / rawPerSecond, 1000),
            "tokenLatencyMicroseconds": ["p50": number(Self.percentile(tokens, 0.5)), "p99": number(Self.percentile(tokens, 0.99))],
            "rawLatencyMicroseconds": ["p50": number(Self.percentile(raw, 0.5)), "p99": number(Self.percentile(raw, 0.99))],
        ]
    }
}
