/// The signing identities a tool or service holds, one per pass type identifier: each Pass Type ID certificate signs
/// only passes of its own type, so a service issuing a venue's tickets and its loyalty cards holds two. Load them once
/// (``CertificatesFolder/load(passphrase:)`` reads a certificates folder) and share them; they are immutable.
public struct SigningIdentities: Sendable {
    /// Every identity, in the order they were loaded (the certificates folder's own identity first, then its
    /// `pass.*` sub-folders by name).
    public let all: [SigningIdentity]
    /// Where the identities came from, named in errors (e.g. `Certificates`).
    public let source: String
    private let byType: [String: SigningIdentity]

    /// Holds `identities`, keyed by their certificates' UID (the pass type identifier).
    ///
    /// - Throws: ``PassmintError/Code/invalidIdentity`` when there is none, when a certificate carries no UID, or
    ///   when two certificates are for the same pass type identifier.
    public init(_ identities: [SigningIdentity], source: String) throws(PassmintError) {
        guard !identities.isEmpty else {
            throw PassmintError(.invalidIdentity, "no signing identity in \(source)")
        }
        var byType: [String: SigningIdentity] = [:]
        for identity in identities {
            guard let uid = identity.certificate.userID else {
                throw PassmintError(
                    .invalidIdentity,
                    "the certificate \(identity.certificate.subject) in \(source) has no UID: it is not a Pass Type ID certificate")
            }
            guard byType[uid] == nil else {
                throw PassmintError(
                    .invalidIdentity, "\(source) holds two certificates for \(uid): keep one Pass Type ID certificate per pass type")
            }
            byType[uid] = identity
        }
        all = identities
        self.source = source
        self.byType = byType
    }

    /// One identity, for the tools that sign with one certificate.
    public init(_ identity: SigningIdentity) {
        all = [identity]
        source = "the signing identity"
        byType = identity.certificate.userID.map { [$0: identity] } ?? [:]
    }

    /// The pass type identifiers there is an identity for, sorted.
    public var passTypeIdentifiers: [String] { byType.keys.sorted() }

    /// The only identity, when there is one; nil when there are several.
    public var sole: SigningIdentity? { all.count == 1 ? all[0] : nil }

    /// The identity whose certificate's UID is `passTypeIdentifier`.
    ///
    /// - Throws: ``PassmintError/Code/identityMismatch`` naming the type, the identities there are, and the folder
    ///   to put the missing one in.
    public func identity(for passTypeIdentifier: String) throws(PassmintError) -> SigningIdentity {
        if let identity = byType[passTypeIdentifier] { return identity }
        // One identity signs whatever it is asked to: its own check then says why the pass is not its type.
        if let sole { return sole }
        let known = passTypeIdentifiers.map { "\"\($0)\"" }.joined(separator: ", ")
        throw PassmintError(
            .identityMismatch,
            """
            no signing identity for pass type "\(passTypeIdentifier)" in \(source) (it holds \(known)): \
            put that type's Pass Type ID certificate in \(source)/\(passTypeIdentifier)/ (signer.pem + signer.key, \
            or signer.p12), or fix passTypeIdentifier in the template's pass.json
            """)
    }
}
