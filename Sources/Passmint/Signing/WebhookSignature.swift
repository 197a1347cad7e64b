public import Foundation

/// The signature `passmint serve` puts on every webhook delivery, and its check for receivers written in Swift.
///
/// The header is `Passmint-Signature: t=<unix seconds>,v1=<hex>`, where the hex is HMAC-SHA256 of `"<t>.<body>"`
/// (the seconds as written, a full stop, then the body's bytes exactly as received) under the webhook's secret (its
/// UTF-8 bytes). Several `v1=` entries may appear; one matching is enough.
///
/// ```swift
/// try WebhookSignature.verify(payload: body, header: signatureHeader, secret: secret)
/// ```
public enum WebhookSignature {
    /// The header's name.
    public static let headerName = "Passmint-Signature"

    /// Why a delivery's signature was not accepted.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The header is not `t=<seconds>,v1=<hex>`.
        case malformedHeader(String)
        /// The timestamp is further from now than the tolerance (a replayed or delayed delivery).
        case outsideTolerance(signedAt: Date, now: Date)
        /// No `v1=` entry is the HMAC of this body under this secret.
        case noMatchingSignature

        public var description: String {
            switch self {
            case .malformedHeader(let header):
                "the \(WebhookSignature.headerName) header \"\(header)\" is not t=<unix seconds>,v1=<hex>: pass the header's value as received"
            case .outsideTolerance(let signedAt, let now):
                "the delivery was signed at \(signedAt), too far from now (\(now)): refuse it, or check this machine's clock"
            case .noMatchingSignature:
                "no v1 signature matches this body under this secret: check the webhook's secret and pass the body's bytes unchanged"
            }
        }
    }

    /// The header's value for `payload` signed at `timestamp` (whole seconds) under `secret`.
    public static func header(payload: some Collection<UInt8>, secret: String, timestamp: Date) -> String {
        let seconds = Int64(timestamp.timeIntervalSince1970.rounded(.down))
        return "t=\(seconds),v1=\(hexString(code(payload: payload, seconds: String(seconds), secret: secret)))"
    }

    /// Checks a delivery: `payload` is the request body's bytes as received, `header` the `Passmint-Signature`
    /// value, `secret` the webhook's secret. Throws ``Failure`` unless one `v1` signature matches and the timestamp is
    /// within `tolerance` of `now` (either side). Signatures are compared in constant time.
    public static func verify(
        payload: some Collection<UInt8>, header: String, secret: String, tolerance: Duration = .seconds(300), now: Date = Date()
    ) throws(Failure) {
        var seconds: String?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw .malformedHeader(header) }
            switch pair[0] {
            case "t": seconds = pair[1]
            case "v1":
                guard let bytes = hexBytes(pair[1]) else { throw .malformedHeader(header) }
                signatures.append(bytes)
            default: continue  // other schemes, for later versions
            }
        }
        guard let seconds, let unix = Int64(seconds), !signatures.isEmpty else { throw .malformedHeader(header) }
        let signedAt = Date(timeIntervalSince1970: TimeInterval(unix))
        let limit = Double(tolerance.components.seconds) + Double(tolerance.components.attoseconds) / 1e18
        guard abs(now.timeIntervalSince(signedAt)) <= limit else { throw .outsideTolerance(signedAt: signedAt, now: now) }
        let expected = code(payload: payload, seconds: seconds, secret: secret)
        guard signatures.contains(where: { constantTimeEqual($0, expected) }) else { throw .noMatchingSignature }
    }

    private static func code(payload: some Collection<UInt8>, seconds: String, secret: String) -> [UInt8] {
        Digest.hmacSHA256(key: Array(secret.utf8), message: Array(seconds.utf8) + [UInt8(ascii: ".")] + Array(payload))
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
