public import Foundation
import PassmintPush

/// Where the service pushes and how it authenticates to APNs.
public struct APNsConfiguration: Sendable {
    /// APNs, or a test server.
    public var endpoint: URL = APNsPushSender.production
    /// An extra root certificate (PEM) to trust for the endpoint, for a test server.
    public var trustRootsFile: String?
    /// An APNs auth key (`AuthKey_<KEYID>.p8`): push with provider tokens instead of the certificate.
    public var authKeyFile: String?
    /// The key's identifier; default: from the file name.
    public var keyIdentifier: String?
    /// The key's team; default: the certificate's team identifier.
    public var teamIdentifier: String?
    /// HTTP/2 connections for each client identity.
    public var connections = 2

    public init() {}
}
