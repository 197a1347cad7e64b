import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// `Passmint-Signature` headers: made and checked by `WebhookSignature`, and checked against Python's `hmac` (the
/// three lines docs/insights.md shows), both ways.
@Suite(.computeThreads) struct WebhookSignatureTests {
    static let secret = "whsec_5f2b0c1e9a7d"
    static let body = Array(#"{"id":"evt_1","type":"installed","serialNumber":"M-1"}"#.utf8)
    static let signedAt = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aHeaderItMadeIsAccepted() throws {
        let header = WebhookSignature.header(payload: Self.body, secret: Self.secret, timestamp: Self.signedAt)
        #expect(header.hasPrefix("t=1800000000,v1="))
        #expect(header.count == "t=1800000000,v1=".count + 64)
        try WebhookSignature.verify(payload: Self.body, header: header, secret: Self.secret, now: Self.signedAt.addingTimeInterval(299))
    }

    @Test func theHexIsHMACSHA256OfTimestampDotBody() {
        // The message is "<t>.<body>": here "0." then RFC 4231's test-case-2 text, computed independently by Python.
        let header = WebhookSignature.header(
            payload: Array("what do ya want for nothing?".utf8), secret: "Jefe", timestamp: Date(timeIntervalSince1970: 0))
        #expect(header == "t=0,v1=" + Self.pythonHMAC(key: "Jefe", message: "0.what do ya want for nothing?"))
    }

    @Test func aChangedBodySecretOrTimeIsRefused() {
        let header = WebhookSignature.header(payload: Self.body, secret: Self.secret, timestamp: Self.signedAt)
        var changed = Self.body
        changed[changed.count - 3] = UInt8(ascii: "2")
        #expect(throws: WebhookSignature.Failure.noMatchingSignature) {
            try WebhookSignature.verify(payload: changed, header: header, secret: Self.secret, now: Self.signedAt)
        }
        #expect(throws: WebhookSignature.Failure.noMatchingSignature) {
            try WebhookSignature.verify(payload: Self.body, header: header, secret: Self.secret + "x", now: Self.signedAt)
        }
        let moved = header.replacingOccurrences(of: "t=1800000000", with: "t=1800000001")
        #expect(throws: WebhookSignature.Failure.noMatchingSignature) {
            try WebhookSignature.verify(payload: Self.body, header: moved, secret: Self.secret, now: Self.signedAt)
        }
    }

    @Test func anOldOrFutureTimestampIsRefused() {
        let header = WebhookSignature.header(payload: Self.body, secret: Self.secret, timestamp: Self.signedAt)
        for now in [Self.signedAt.addingTimeInterval(301), Self.signedAt.addingTimeInterval(-301)] {
            #expect(throws: WebhookSignature.Failure.outsideTolerance(signedAt: Self.signedAt, now: now)) {
                try WebhookSignature.verify(payload: Self.body, header: header, secret: Self.secret, now: now)
            }
        }
        #expect(throws: Never.self) {
            try WebhookSignature.verify(
                payload: Self.body, header: header, secret: Self.secret, tolerance: .seconds(3600),
                now: Self.signedAt.addingTimeInterval(3000))
        }
    }

    @Test(arguments: ["", "t=1800000000", "v1=00ff", "t=soon,v1=00ff", "t=1800000000,v1=0g", "t=1800000000,v1=abc", "garbage"])
    func aMalformedHeaderIsNamed(_ header: String) {
        #expect(throws: WebhookSignature.Failure.malformedHeader(header)) {
            try WebhookSignature.verify(payload: Self.body, header: header, secret: Self.secret, now: Self.signedAt)
        }
    }

    @Test func oneMatchingSignatureAmongSeveralIsEnough() throws {
        let good = WebhookSignature.header(payload: Self.body, secret: Self.secret, timestamp: Self.signedAt)
        let other = WebhookSignature.header(payload: Self.body, secret: "old-secret", timestamp: Self.signedAt)
        let both = other + ",v1=" + good.split(separator: "=").last!
        try WebhookSignature.verify(payload: Self.body, header: both, secret: Self.secret, now: Self.signedAt)
    }

    /// The check docs/insights.md shows, run by Python on a header Swift made; and a header Python made, checked by Swift.
    @Test func pythonsHMACAgrees() throws {
        let header = WebhookSignature.header(payload: Self.body, secret: Self.secret, timestamp: Self.signedAt)
        let script = """
            import hmac, hashlib, sys
            body, secret, header = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
            parts = [part.split("=", 1) for part in header.split(",")]
            t = next(value for key, value in parts if key == "t")
            expected = hmac.new(secret.encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest()
            ok = any(hmac.compare_digest(value, expected) for key, value in parts if key == "v1")
            print("ok" if ok else "bad")
            """
        let body = String(decoding: Self.body, as: UTF8.self)
        let accepted = try TestEnvironment.run("python3", ["-c", script, body, Self.secret, header])
        #expect(accepted.stdout == "ok\n", "\(accepted.stderr)")
        let refused = try TestEnvironment.run("python3", ["-c", script, body + " ", Self.secret, header])
        #expect(refused.stdout == "bad\n", "\(refused.stderr)")
        // Two v1 entries (an old secret's first), as while a secret is replaced: the snippet finds the matching one.
        let other = WebhookSignature.header(payload: Self.body, secret: "old-secret", timestamp: Self.signedAt)
        let both = other + ",v1=" + header.split(separator: "=").last!
        let rotated = try TestEnvironment.run("python3", ["-c", script, body, Self.secret, both])
        #expect(rotated.stdout == "ok\n", "\(rotated.stderr)")

        let made = "t=1800000000,v1=" + Self.pythonHMAC(key: Self.secret, message: "1800000000." + body)
        try WebhookSignature.verify(payload: Self.body, header: made, secret: Self.secret, now: Self.signedAt)
    }

    static func pythonHMAC(key: String, message: String) -> String {
        let script = "import hmac, hashlib, sys; print(hmac.new(sys.argv[1].encode(), sys.argv[2].encode(), hashlib.sha256).hexdigest())"
        let result = try? TestEnvironment.run("python3", ["-c", script, key, message])
        return result?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "python3 failed"
    }
}
