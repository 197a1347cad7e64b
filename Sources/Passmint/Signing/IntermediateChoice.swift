/// The WWDR intermediate that goes into every signature beside the Pass Type ID certificate.
///
/// The wrong intermediate is among the most common reasons Wallet refuses a pass: a certificate issued by WWDR G4
/// signed with the G1 file verifies nowhere. So the intermediate is checked against the signer before anything is
/// signed, and when none is given, Passmint's own copy of the Apple WWDR certificate that issued the signer is used.
public struct IntermediateChoice: Sendable {
    /// The intermediates to put into signatures.
    public var certificates: [Certificate]
    /// Said to the user when Passmint chose the intermediate itself (nil when the given one was used).
    public var note: String?

    /// Chooses the intermediates for `signer`.
    ///
    /// - Parameters:
    ///   - signer: the Pass Type ID certificate.
    ///   - given: the intermediates the user gave (a WWDR file, or a `.p12`'s chain), possibly none.
    ///   - source: where `given` came from, for messages (`Certificates/wwdr.pem`, `the .p12's chain`).
    /// - Throws: ``PassmintError/Code/invalidIdentity`` when the given intermediates did not issue the signer (naming
    ///   the Apple WWDR generation that did and its file), or when none is given and no Apple WWDR certificate issued
    ///   the signer.
    public static func choose(for signer: Certificate, given: [Certificate], source: String) throws(PassmintError) -> IntermediateChoice {
        let apple = AppleCertificates.issuer(of: signer)
        if given.contains(where: { $0.issued(signer) }) {
            return IntermediateChoice(certificates: given, note: nil)
        }
        let subject = signer.userID ?? signer.commonName ?? signer.subject
        if let first = given.first {
            let givenName = "\(first.commonName ?? first.subject)\(first.organizationalUnit.map { ", \($0)" } ?? "")"
            if let apple {
                throw PassmintError(
                    .invalidIdentity,
                    "\(source) (\(givenName)) did not issue the signing certificate \(subject): it was issued by Apple WWDR "
                        + "\(generation(apple)). Wallet refuses passes signed with the wrong intermediate: use "
                        + "--wwdr Certificates/apple/\(apple.file) (or leave --wwdr out and Passmint takes that file itself)")
            }
            throw PassmintError(
                .invalidIdentity,
                "\(source) (\(givenName)) did not issue the signing certificate \(subject), whose issuer is "
                    + "\(signer.issuerCommonName ?? signer.issuer): give the intermediate that issued it with --wwdr")
        }
        guard let apple else {
            throw PassmintError(
                .invalidIdentity,
                "no WWDR intermediate for the signing certificate \(subject) (issuer: \(signer.issuerCommonName ?? signer.issuer)), and no "
                    + "Apple WWDR certificate issued it: give the intermediate that did with --wwdr, or put it at wwdr.pem in the "
                    + "certificates folder")
        }
        return IntermediateChoice(
            certificates: [apple.certificate],
            note:
                "no WWDR intermediate given: using Passmint's copy of Apple WWDR \(generation(apple)) (Certificates/apple/\(apple.file)), "
                + "which issued the signing certificate")
    }

    /// `G4`, or the file name when the certificate carries no generation.
    static func generation(_ entry: AppleCertificates.Entry) -> String {
        entry.certificate.organizationalUnit.flatMap { $0.hasPrefix("G") ? $0 : nil } ?? "G1 (\(entry.file))"
    }
}
