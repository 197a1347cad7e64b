import Foundation
import PassmintTestSupport
import Testing

@testable import PassmintPush

/// APNs that cannot be reached costs one connection attempt, not one per push and retry (the hardening issue's item 9:
/// with a TLS handshake that hung, 65 devices took 124 s, each push waiting for four 10 s connection attempts).
@Suite struct APNsUnreachableTests {
    private func pushToken() -> String { (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() }

    @Test func aHangingTLSHandshakeIsTriedOnceForAllPushes() async throws {
        let peer = try SilentPeer()
        defer { peer.shutdown() }
        let sender = try APNsPushSender(
            identity: ServiceHarness.identity(), endpoint: peer.url, maxAttempts: 4, retryDelay: .milliseconds(10),
            connectTimeout: .seconds(2), requestTimeout: .milliseconds(400), unreachableBackOff: .seconds(60))
        let tokens = (0..<65).map { _ in pushToken() }
        let outcomes = await sender.push(topic: ServiceHarness.passType, pushTokens: tokens)
        #expect(outcomes.count == 65)
        #expect(outcomes.allSatisfy { $0.result == .failed && $0.status == 0 })
        // One push probed (one attempt); the others waited for it and were not tried.
        #expect(outcomes.map(\.attempts).reduce(0, +) == 1, "\(outcomes.map(\.attempts))")
        #expect(outcomes.filter { $0.attempts == 0 }.allSatisfy { $0.reason?.hasPrefix("APNs unreachable") == true })
        #expect(peer.connections <= 2, "one connection attempt for 65 pushes: \(peer.connections)")
        // Within the back-off a later round tries nothing at all.
        let again = await sender.push(topic: ServiceHarness.passType, pushTokens: [pushToken()])
        #expect(again.first?.attempts == 0)
        #expect(peer.connections <= 2)
        try await sender.shutdown()
    }

    @Test func aRefusedConnectionIsTriedAgainAfterTheBackOff() async throws {
        // A port with nothing listening: the connection is refused at once.
        let closed = try SilentPeer()
        let url = closed.url
        closed.shutdown()
        let clock = ManualClock()
        let sender = try APNsPushSender(
            identity: ServiceHarness.identity(), endpoint: url, maxAttempts: 4, retryDelay: .milliseconds(10),
            connectTimeout: .seconds(2), requestTimeout: .seconds(2), unreachableBackOff: .seconds(2), now: clock.now)
        let outcomes = await sender.push(topic: ServiceHarness.passType, pushTokens: (0..<20).map { _ in pushToken() })
        #expect(outcomes.allSatisfy { $0.result == .failed && $0.status == 0 })
        #expect(outcomes.map(\.attempts).reduce(0, +) == 1, "a refused connection is not retried push by push")
        // Within the back-off nothing is tried; after it, the next push probes again (one attempt), and fails again.
        clock.advance(by: .milliseconds(1_900))
        #expect(await sender.push(topic: ServiceHarness.passType, pushTokens: [pushToken()]).first?.attempts == 0)
        clock.advance(by: .milliseconds(200))
        let later = await sender.push(topic: ServiceHarness.passType, pushTokens: [pushToken()])
        #expect(later.first?.attempts == 1)
        try await sender.shutdown()
    }
}
