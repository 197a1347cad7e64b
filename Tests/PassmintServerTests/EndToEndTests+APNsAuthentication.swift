import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOSSL
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// How the APNs stand-in authenticates a client: the right certificate, no certificate, provider tokens from the
/// right key or another.
extension EndToEndTests {
    @Test func apnsRefusesAClientWithoutTheRightCertificate() async throws {
        let (apnsServer, sender) = try Self.apns()
        defer { apnsServer.shutdown() }
        try await sender.shutdown()
        let stranger = try TestEnvironment.devChain(uid: "pass.dev.stranger", team: "STRANGER01")
        let otherIdentity = try SigningIdentity(
            certificatePath: stranger.appendingPathComponent("signer.pem").path,
            keyPath: stranger.appendingPathComponent("signer.key").path, passphrase: nil,
            wwdrPath: stranger.appendingPathComponent("wwdr.pem").path)
        let impostor = try APNsPushSender(
            identity: otherIdentity, endpoint: apnsServer.url, trustRoots: [apnsServer.serverCertificate],
            maxAttempts: 1)
        let outcomes = await impostor.push(topic: "pass.dev.stranger", pushTokens: [pushToken()])
        #expect(outcomes.first?.result == .failed)
        #expect(outcomes.first?.status == 0, "the TLS handshake fails: no HTTP status")
        #expect(apnsServer.received.isEmpty)
        try await impostor.shutdown()
    }

    @Test func apnsRefusesAClientWithoutACertificate() async throws {
        let (apnsServer, sender) = try Self.apns()
        defer { apnsServer.shutdown() }
        try await sender.shutdown()
        // A provider token instead of a certificate: the client presents no certificate at all.
        let (tokenServer, token) = try Self.tokenAPNs()
        tokenServer.shutdown()
        let anonymous = try APNsPushSender(
            identity: ServiceHarness.identity(), providerToken: token, endpoint: apnsServer.url,
            trustRoots: [apnsServer.serverCertificate], maxAttempts: 1)
        let outcomes = await anonymous.push(topic: ServiceHarness.passType, pushTokens: [pushToken()])
        #expect(outcomes.first?.result == .failed)
        #expect(outcomes.first?.status == 0, "the TLS handshake fails: no HTTP status")
        #expect(apnsServer.received.isEmpty)
        try await anonymous.shutdown()
    }

    /// A `.p8` key, its public half, and a mock APNs server that wants provider tokens signed by it.
    static func tokenAPNs(keyIdentifier: String = "ABC123DEFG") throws -> (MockAPNsServer, APNsProviderToken) {
        let folder = TestEnvironment.temporaryFolder("apns-token")
        let key = try TestAPNsKey(folder: folder, keyIdentifier: keyIdentifier)
        let server = try MockAPNsServer(
            clientCA: TestEnvironment.devChain().appendingPathComponent("root.pem"), folder: folder,
            providerTokens: try key.verifier(teamIdentifier: "DEVTEAM123"))
        return (server, try APNsProviderToken(p8Path: key.p8.path, keyIdentifier: nil, teamIdentifier: "DEVTEAM123"))
    }

    @Test func providerTokensAuthenticateWithoutTheCertificate() async throws {
        let (apnsServer, token) = try Self.tokenAPNs()
        defer { apnsServer.shutdown() }
        #expect(token.keyIdentifier == "ABC123DEFG", "taken from the file name AuthKey_<KEYID>.p8")
        let sender = try APNsPushSender(
            identity: ServiceHarness.identity(), providerToken: token, endpoint: apnsServer.url,
            trustRoots: [apnsServer.serverCertificate], retryDelay: .milliseconds(20))
        let expiring = pushToken()
        apnsServer.setBehavior(.init([(403, "ExpiredProviderToken"), (200, nil)]), for: expiring)
        let outcomes = await sender.push(topic: ServiceHarness.passType, pushTokens: [pushToken(), pushToken(), expiring])
        #expect(outcomes.allSatisfy { $0.result == .delivered }, "\(outcomes)")
        #expect(outcomes.first { $0.pushToken == expiring }?.attempts == 2, "an expired token is renewed and the push retried")
        let received = apnsServer.received
        #expect(received.count == 4)
        #expect(received.allSatisfy { $0.clientCertificateSubject == nil }, "no client certificate with token authentication")
        #expect(received.allSatisfy { $0.authorization?.hasPrefix("bearer ") == true })
        let afterRenewal = try #require(received.last { $0.token == expiring }?.authorization)
        #expect(received.first?.authorization != afterRenewal, "a new token was signed after ExpiredProviderToken")
        try await sender.shutdown()
    }

    @Test func aTokenFromAnotherKeyIsRefused() async throws {
        let (apnsServer, _) = try Self.tokenAPNs()
        defer { apnsServer.shutdown() }
        let (otherServer, strangerToken) = try Self.tokenAPNs()  // same key id and team, another key
        otherServer.shutdown()
        let sender = try APNsPushSender(
            identity: ServiceHarness.identity(), providerToken: strangerToken, endpoint: apnsServer.url,
            trustRoots: [apnsServer.serverCertificate], retryDelay: .milliseconds(20))
        let outcomes = await sender.push(topic: ServiceHarness.passType, pushTokens: [pushToken()])
        #expect(outcomes.first?.result == .failed)
        #expect(outcomes.first?.status == 403)
        #expect(outcomes.first?.reason == "InvalidProviderToken")
        #expect(outcomes.first?.attempts == 1, "a refused token is not retried")
        #expect(apnsServer.received.isEmpty)
        try await sender.shutdown()

        // Certificate authentication against a server that wants tokens: 403 MissingProviderToken.
        let certificateSender = try APNsPushSender(
            identity: ServiceHarness.identity(), endpoint: apnsServer.url,
            trustRoots: [apnsServer.serverCertificate], maxAttempts: 1)
        let missing = await certificateSender.push(topic: ServiceHarness.passType, pushTokens: [pushToken()])
        #expect(missing.first?.reason == "MissingProviderToken")
        try await certificateSender.shutdown()
    }
}
