import Foundation

/// A certificates folder: one signing identity at its top level (`signer.pem` + `signer.key`, or `signer.p12`, with
/// `wwdr.pem`), and/or one sub-folder per pass type identifier, named after it:
///
/// ```
/// Certificates/
///   pass.com.example.loyalty/   signer.pem  signer.key  wwdr.pem
///   pass.com.example.tickets/   signer.p12
///   wwdr.pem                    (used by the sub-folders that have none)
/// ```
///
/// Only sub-folders whose names start with `pass.` (or `order.`, Order Type IDs) are read, so other folders (Apple's certificates, a development
/// chain) can live beside them. A sub-folder's certificate must carry its folder's name as UID.
public struct CertificatesFolder: Sendable {
    /// One place an identity is read from.
    public struct Entry: Sendable, Equatable {
        /// The folder holding the files.
        public var folder: String
        /// `signer.pem`, unless only `signer.p12` is there.
        public var certificatePath: String?
        /// `signer.key` when present.
        public var keyPath: String?
        /// `signer.p12` when there is no `signer.pem`.
        public var p12Path: String?
        /// The WWDR intermediate: the folder's `wwdr.pem`, else the top folder's, else nil (Passmint's copy of
        /// Apple's is chosen then).
        public var wwdrPath: String?
        /// The sub-folder's name (the pass type identifier it must hold), nil for the top level.
        public var expectedPassTypeIdentifier: String?

        public init(
            folder: String, certificatePath: String? = nil, keyPath: String? = nil, p12Path: String? = nil, wwdrPath: String? = nil,
            expectedPassTypeIdentifier: String? = nil
        ) {
            self.folder = folder
            self.certificatePath = certificatePath
            self.keyPath = keyPath
            self.p12Path = p12Path
            self.wwdrPath = wwdrPath
            self.expectedPassTypeIdentifier = expectedPassTypeIdentifier
        }
    }

    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Where identities are, top level first, then the `pass.*` sub-folders by name.
    ///
    /// - Throws: ``PassmintError/Code/invalidIdentity`` when the folder does not exist or holds no identity, saying
    ///   what to put there.
    public func entries() throws(PassmintError) -> [Entry] {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw PassmintError(
                .invalidIdentity,
                "certificates folder \(path) does not exist: put signer.pem + signer.key (or signer.p12) and wwdr.pem there, or run Certificates/make-dev-chain.sh and use --certificates Certificates/dev"
            )
        }
        let topWWDR = exists(path + "/wwdr.pem") ? path + "/wwdr.pem" : nil
        var entries: [Entry] = []
        if let top = entry(in: path, wwdr: topWWDR, expected: nil) { entries.append(top) }
        let names = ((try? files.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("pass.") || $0.hasPrefix("order.") }
            .sorted()
        for name in names {
            let folder = path + "/" + name
            guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { continue }
            let wwdr = exists(folder + "/wwdr.pem") ? folder + "/wwdr.pem" : topWWDR
            guard let found = entry(in: folder, wwdr: wwdr, expected: name) else {
                throw PassmintError(
                    .invalidIdentity,
                    "\(folder)/ holds no signing identity: put the Pass Type ID certificate for \(name) there (signer.pem + signer.key, or signer.p12)"
                )
            }
            entries.append(found)
        }
        guard !entries.isEmpty else {
            throw PassmintError(
                .invalidIdentity,
                "no signing identity in \(path)/: it needs signer.pem + signer.key (or signer.p12) and wwdr.pem, or one sub-folder per pass type identifier (\(path)/pass.com.example.loyalty/signer.pem …). See Certificates/README.md, or run Certificates/make-dev-chain.sh and use --certificates Certificates/dev"
            )
        }
        return entries
    }

    /// Loads every identity in the folder, with one passphrase for every encrypted key or `.p12`.
    ///
    /// - Throws: what loading an identity throws (naming its files), or ``PassmintError/Code/invalidIdentity`` when a
    ///   sub-folder's certificate is for another pass type than its name.
    public func load(passphrase: String?) throws(PassmintError) -> SigningIdentities {
        var identities: [SigningIdentity] = []
        for entry in try entries() {
            let identity: SigningIdentity
            if let certificatePath = entry.certificatePath, let keyPath = entry.keyPath {
                identity = try SigningIdentity(
                    certificatePath: certificatePath, keyPath: keyPath, passphrase: passphrase, wwdrPath: entry.wwdrPath)
            } else if let p12Path = entry.p12Path {
                identity = try SigningIdentity(p12Path: p12Path, password: passphrase, wwdrPath: entry.wwdrPath)
            } else {
                throw PassmintError(
                    .invalidIdentity,
                    "\(entry.folder)/signer.pem has no private key beside it: put signer.key there (or use signer.p12 instead)")
            }
            if let expected = entry.expectedPassTypeIdentifier, identity.certificate.userID != expected {
                let uid = identity.certificate.userID ?? "(no UID)"
                throw PassmintError(
                    .invalidIdentity,
                    "\(entry.folder)/ is named for \(expected) but its certificate is for \(uid): move it to \(path)/\(uid)/")
            }
            identities.append(identity)
        }
        return try SigningIdentities(identities, source: path)
    }

    private func entry(in folder: String, wwdr: String?, expected: String?) -> Entry? {
        if exists(folder + "/signer.pem") && exists(folder + "/signer.key") {
            return Entry(
                folder: folder, certificatePath: folder + "/signer.pem", keyPath: folder + "/signer.key", wwdrPath: wwdr,
                expectedPassTypeIdentifier: expected)
        }
        if exists(folder + "/signer.p12") {
            return Entry(folder: folder, p12Path: folder + "/signer.p12", wwdrPath: wwdr, expectedPassTypeIdentifier: expected)
        }
        if exists(folder + "/signer.pem") {  // no key: `certs check` still reports the certificate; loading says what is missing
            return Entry(folder: folder, certificatePath: folder + "/signer.pem", wwdrPath: wwdr, expectedPassTypeIdentifier: expected)
        }
        return nil
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
