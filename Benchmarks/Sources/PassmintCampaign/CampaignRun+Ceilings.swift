import BenchSupport
import Foundation
import Logging
import NIOSSL
import Passmint
import PassmintPush
import PassmintTestSupport

/// What pushes could reach in this run, against the same stand-in: what the stand-in takes from a bare HTTP/2
/// client, and what the APNs client (Passmint's, as the service uses it) pushes on its own.
struct PushCeilings {
    var standIn: Double
    var client: Double
    /// The APNs client alone with one connection, when the campaign's client has more.
    var clientOneConnection: Double?
    var threads: Int
    /// The APNs client's pushes not delivered in its run, of how many, and the first one's outcome.
    var clientUndelivered = 0
    var clientPushes = 0
    var clientFailure: String?
}

extension CampaignRun {
    /// The stand-in alone first (its ceiling), then the APNs client alone; the stand-in is reset after both.
    func pushCeilings() async throws -> PushCeilings {
        let providerToken = try authKey.map {
            try APNsProviderToken(p8Path: $0.path, keyIdentifier: Self.keyIdentifier, teamIdentifier: Self.team)
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([apns.serverCertificate])
        tls.applicationProtocols = ["h2"]
        if providerToken == nil {
            tls.certificateChain = try ["signer.pem", "wwdr.pem"].flatMap {
                try NIOSSLCertificate.fromPEMFile(chain.appendingPathComponent($0).path)
            }.map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: chain.appendingPathComponent("signer.key").path, format: .pem))
        }
        let bare = StandInCeiling(
            tls: tls, authorization: try providerToken.map { "bearer \(try $0.token())" }, topic: Self.topic,
            connections: options.standInThreads, window: 64)
        let (apns, count) = (self.apns, options.ceilingTokens)
        let standIn = try await onOwnThread {
            _ = try bare.measure(against: apns, count: min(2_000, count))  // connections and code warm
            return try bare.measure(against: apns, count: count)
        }
        apns.reset()

        let identity = try SigningIdentity(
            certificatePath: chain.appendingPathComponent("signer.pem").path, keyPath: chain.appendingPathComponent("signer.key").path,
            passphrase: nil, wwdrPath: chain.appendingPathComponent("wwdr.pem").path)
        var logger = Logger(label: "campaign.ceiling")
        logger.logLevel = .warning
        // The ceiling measures pushes, not how fast a loaded machine opens a connection: 30 s to connect.
        func clientAlone(connections: Int) async throws -> (rate: Double, outcomes: [PushOutcome]) {
            let sender = try APNsPushSender(
                identity: identity, providerToken: providerToken, endpoint: apns.url, trustRoots: [apns.serverCertificate],
                connections: connections, connectTimeout: .seconds(30), logger: logger)
            let tokens = (0..<options.ceilingTokens).map { String(format: "%064x", 900_000_000 + $0) }
            _ = await sender.push(topic: Self.topic, pushTokens: Array(tokens.prefix(1_000)))  // connections and code warm
            let start = ContinuousClock.now
            let outcomes = await sender.push(topic: Self.topic, pushTokens: tokens)
            let rate = Double(outcomes.filter { $0.result == .delivered }.count) / (ContinuousClock.now - start).seconds
            try await sender.shutdown()
            return (rate, outcomes)
        }
        let oneConnection = options.apnsConnections > 1 ? try await clientAlone(connections: 1).rate : nil
        let (client, outcomes) = try await clientAlone(connections: options.apnsConnections)
        let refused = apns.refused
        apns.reset()
        guard refused.isEmpty else { throw CampaignError("the stand-in refused pushes of the APNs client: \(refused)") }
        // Each push is bounded by the client's request timeout and attempts; the pushes not delivered are printed
        // beside the rate (which counts delivered pushes only) rather than lowering it unseen.
        let undelivered = outcomes.filter { $0.result != .delivered }
        let failure = undelivered.first.map {
            "\($0.result.rawValue), status \($0.status), \($0.reason ?? "no reason") after \($0.attempts) attempt(s)"
        }
        return PushCeilings(
            standIn: standIn, client: client, clientOneConnection: oneConnection, threads: apns.threads,
            clientUndelivered: undelivered.count, clientPushes: outcomes.count,
            clientFailure: failure)
    }

    /// Runs blocking `work` (NIO's `wait()`) on a thread of its own, off Swift's cooperative pool.
    func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Runs `body` for each element, `width` at a time.
    func forEachConcurrently<Elements: Collection & Sendable>(
        _ elements: Elements, width: Int, _ body: @escaping @Sendable (Elements.Element) async throws -> Void
    ) async throws where Elements.Element: Sendable {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var iterator = elements.makeIterator()
            for _ in 0..<width {
                guard let element = iterator.next() else { break }
                group.addTask { try await body(element) }
            }
            while try await group.next() != nil {
                if let element = iterator.next() { group.addTask { try await body(element) } }
            }
        }
    }
}
