import Foundation
import Logging
import NIOSSL
import Passmint
import PassmintPush

extension APNsPushSenders {
    /// The APNs clients the configuration describes: one per pass type, each with its certificate as TLS client
    /// identity, or one with provider tokens signed with the `.p8` key (checked now: a key that cannot sign fails at
    /// start-up, not at the first push).
    convenience init(configuration: ServerConfiguration, logger: Logger) throws {
        let apns = configuration.apns
        let roots = try apns.trustRootsFile.map { try NIOSSLCertificate.fromPEMFile($0) }
        var providerToken: APNsProviderToken?
        if let keyPath = apns.authKeyFile {
            guard let team = apns.teamIdentifier ?? configuration.identities.all[0].certificate.organizationalUnit else {
                throw ConfigurationError("give --apns-team-id (or PASSMINT_APNS_TEAM_ID): the certificate names no team")
            }
            providerToken = try APNsProviderToken(p8Path: keyPath, keyIdentifier: apns.keyIdentifier, teamIdentifier: team)
            _ = try providerToken?.token()
        }
        try self.init(
            identities: configuration.identities, providerToken: providerToken, endpoint: apns.endpoint, trustRoots: roots,
            connections: apns.connections, logger: logger)
    }
}
