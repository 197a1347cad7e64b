import Foundation
import Logging
import NIOSSL
import Passmint
import PassmintPush

extension APNsPushSender {
    /// The APNs client the configuration describes: certificate authentication with the signing identity, or provider
    /// tokens signed with the `.p8` key (checked now: a key that cannot sign fails at start-up, not at the first push).
    convenience init(configuration: ServerConfiguration, logger: Logger) throws {
        let apns = configuration.apns
        let roots = try apns.trustRootsFile.map { try NIOSSLCertificate.fromPEMFile($0) }
        var providerToken: APNsProviderToken?
        if let keyPath = apns.authKeyFile {
            guard let team = apns.teamIdentifier ?? configuration.identity.certificate.organizationalUnit else {
                throw ConfigurationError("give --apns-team-id (or PASSMINT_APNS_TEAM_ID): the certificate names no team")
            }
            providerToken = try APNsProviderToken(p8Path: keyPath, keyIdentifier: apns.keyIdentifier, teamIdentifier: team)
            _ = try providerToken?.token()
        }
        try self.init(
            identity: configuration.identity, providerToken: providerToken, endpoint: apns.endpoint, trustRoots: roots, logger: logger)
    }

    /// How pushes authenticate, for the start-up log.
    var authenticationDescription: String {
        providerToken.map { "token \($0.keyIdentifier)/\($0.teamIdentifier)" } ?? "certificate"
    }
}
