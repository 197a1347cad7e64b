public import Foundation
public import Logging
public import NIOSSL
public import Passmint

/// The APNs clients of a service that issues several pass types. With certificate authentication each pass type is
/// its own TLS client identity, so each gets its own ``APNsPushSender`` (its own HTTP/2 connections) and a push goes
/// out on the connections of its topic's certificate. With a provider token (`.p8` key) one client serves every
/// type of the key's team.
public final class APNsPushSenders: PushSender {
    private let senders: [String: APNsPushSender]
    private let shared: APNsPushSender?

    /// How pushes authenticate, for the start-up log: `certificate` (with the types) or `token KEY/TEAM`.
    public let authenticationDescription: String

    /// One client per identity, or one client for all with `providerToken`; each client opens `connections` HTTP/2
    /// connections.
    ///
    /// - Throws: when a certificate or key cannot be used for TLS, or when `providerToken`'s team is not the team of
    ///   every identity (a `.p8` key pushes only for its own team's pass types).
    public init(
        identities: SigningIdentities, providerToken: APNsProviderToken?, endpoint: URL, trustRoots: [NIOSSLCertificate]?,
        connections: Int = 2, logger: Logger
    ) throws {
        if let providerToken {
            for identity in identities.all where identity.certificate.organizationalUnit != providerToken.teamIdentifier {
                throw PassmintError(
                    .invalidIdentity,
                    """
                    the APNs key \(providerToken.keyIdentifier) belongs to team \(providerToken.teamIdentifier), but \
                    \(identity.certificate.userID ?? identity.certificate.subject) belongs to team \
                    \(identity.certificate.organizationalUnit ?? "(none)"): a .p8 key pushes only for its own team's pass \
                    types; serve the other team with certificate authentication (no --apns-key) or another service
                    """)
            }
            shared = try APNsPushSender(
                identity: identities.all[0], providerToken: providerToken, endpoint: endpoint, trustRoots: trustRoots,
                connections: connections, logger: logger)
            senders = [:]
            authenticationDescription = "token \(providerToken.keyIdentifier)/\(providerToken.teamIdentifier)"
        } else {
            var senders: [String: APNsPushSender] = [:]
            for identity in identities.all {
                let sender = try APNsPushSender(
                    identity: identity, endpoint: endpoint, trustRoots: trustRoots, connections: connections, logger: logger)
                senders[identity.certificate.userID ?? ""] = sender
            }
            self.senders = senders
            shared = identities.sole.map { senders[$0.certificate.userID ?? ""]! }
            authenticationDescription = "certificate (\(identities.passTypeIdentifiers.joined(separator: ", ")))"
        }
    }

    /// The client that pushes for `topic`; nil when no identity is for that pass type.
    public func sender(for topic: String) -> APNsPushSender? { senders[topic] ?? shared }

    public func push(topic: String, pushTokens: [String]) async -> [PushOutcome] {
        guard let sender = sender(for: topic) else {
            // No certificate for this type: APNs would refuse it (TopicDisallowed); say so without a connection.
            return pushTokens.map {
                PushOutcome(pushToken: $0, result: .failed, status: 0, reason: "NoIdentityForTopic", attempts: 0)
            }
        }
        return await sender.push(topic: topic, pushTokens: pushTokens)
    }

    /// Closes every client's connections (a client's shutdown is idempotent, so the shared one may be listed twice).
    public func shutdown() async throws {
        for sender in Array(senders.values) + [shared].compactMap({ $0 }) { try await sender.shutdown() }
    }
}
