public import Foundation

/// What `passmint certs check` reports about a signing identity.
public struct CertificateReport: Sendable {
    public var subject: String
    /// The subject UID: the pass type identifier.
    public var passTypeIdentifier: String?
    /// The subject OU: the team identifier.
    public var teamIdentifier: String?
    public var issuer: String
    /// The Apple WWDR certificate that issued it (`AppleWWDRCAG4.pem`), or nil when no shipped Apple certificate did.
    public var issuingWWDR: String?
    public var notBefore: Date
    public var notAfter: Date
    /// "Pass Type ID with NFC" in the subject.
    public var isNFCEnabled: Bool
    public var checks: [VerificationReport.Check] = []

    /// True when no check failed.
    public var isUsable: Bool { !checks.contains { $0.status == .failed } }

    mutating func add(_ name: String, _ status: VerificationReport.Status, _ detail: String) {
        checks.append(.init(name: name, status: status, detail: detail))
    }

    /// `{"subject", "passTypeIdentifier", "teamIdentifier", "issuer", "issuingWWDR", "notBefore", "notAfter", "nfcEnabled",
    /// "usable", "checks": [{"name", "status", "detail"}]}`.
    public var json: JSONValue {
        let formatter = ISO8601DateFormatter()
        var object: JSONObject = ["subject": .string(subject), "issuer": .string(issuer)]
        object["passTypeIdentifier"] = passTypeIdentifier.map(JSONValue.string) ?? .null
        object["teamIdentifier"] = teamIdentifier.map(JSONValue.string) ?? .null
        object["issuingWWDR"] = issuingWWDR.map(JSONValue.string) ?? .null
        object["notBefore"] = .string(formatter.string(from: notBefore))
        object["notAfter"] = .string(formatter.string(from: notAfter))
        object["nfcEnabled"] = .bool(isNFCEnabled)
        object["usable"] = .bool(isUsable)
        object["checks"] = .array(
            checks.map { ["name": .string($0.name), "status": .string($0.status.rawValue), "detail": .string($0.detail)] })
        return .object(object)
    }
}

/// Examines a Pass Type ID certificate, its key, the WWDR file and the `.p12` it came from.
public enum CertificateDoctor {
    /// The inputs of a check; any may be missing except the certificate.
    public struct Input: Sendable {
        public var certificate: Certificate
        public var privateKey: PrivateKey?
        public var wwdr: Certificate?
        /// Where the WWDR certificate came from, for messages.
        public var wwdrSource: String?
        public var p12: PKCS12Bundle?
        /// The pass type identifier the certificate should carry.
        public var expectedPassTypeIdentifier: String?

        public init(
            certificate: Certificate, privateKey: PrivateKey? = nil, wwdr: Certificate? = nil, wwdrSource: String? = nil,
            p12: PKCS12Bundle? = nil, expectedPassTypeIdentifier: String? = nil
        ) {
            self.certificate = certificate
            self.privateKey = privateKey
            self.wwdr = wwdr
            self.wwdrSource = wwdrSource
            self.p12 = p12
            self.expectedPassTypeIdentifier = expectedPassTypeIdentifier
        }
    }

    public static func check(_ input: Input, now: Date = Date()) -> CertificateReport {
        let certificate = input.certificate
        let formatter = ISO8601DateFormatter()
        let appleIssuer = AppleCertificates.issuer(of: certificate)
        var report = CertificateReport(
            subject: certificate.subject, passTypeIdentifier: certificate.userID, teamIdentifier: certificate.organizationalUnit,
            issuer: certificate.issuer, issuingWWDR: appleIssuer?.file, notBefore: certificate.notBefore, notAfter: certificate.notAfter,
            isNFCEnabled: certificate.commonName?.contains("Pass Type ID with NFC") == true)

        if let uid = certificate.userID, uid.hasPrefix("pass.") {
            report.add("pass-type-id", .passed, "UID \(uid)")
        } else {
            report.add("pass-type-id", .failed, "the subject has no UID starting with \"pass.\": this is not a Pass Type ID certificate")
        }
        if let expected = input.expectedPassTypeIdentifier {
            report.add(
                "pass-type-id-match", certificate.userID == expected ? .passed : .failed,
                certificate.userID == expected
                    ? "UID matches \(expected)" : "UID is \"\(certificate.userID ?? "none")\", expected \"\(expected)\"")
        }
        if let ou = certificate.organizationalUnit {
            report.add("team", .passed, "OU (team identifier) \(ou)")
        } else {
            report.add("team", .failed, "the subject has no OU (team identifier)")
        }

        let days = Int(certificate.notAfter.timeIntervalSince(now) / 86_400)
        if now > certificate.notAfter {
            report.add(
                "validity", .failed, "expired on \(formatter.string(from: certificate.notAfter)): create a new Pass Type ID certificate")
        } else if now < certificate.notBefore {
            report.add("validity", .failed, "not valid before \(formatter.string(from: certificate.notBefore)): check the clock")
        } else if days < 30 {
            report.add("validity", .warning, "expires in \(days) day(s), on \(formatter.string(from: certificate.notAfter)): renew it soon")
        } else {
            report.add("validity", .passed, "valid until \(formatter.string(from: certificate.notAfter)) (\(days) days)")
        }

        if let appleIssuer {
            report.add("issuer", .passed, "issued by Apple WWDR \(appleIssuer.certificate.organizationalUnit ?? "") (\(appleIssuer.file))")
        } else {
            report.add(
                "issuer", .warning,
                "not issued by an Apple WWDR certificate (\(certificate.issuer)); Wallet accepts only Apple-issued certificates")
        }

        if let key = input.privateKey {
            report.add(
                "key-match", certificate.matches(key) ? .passed : .failed,
                certificate.matches(key)
                    ? "the private key belongs to the certificate (\(key.bits)-bit)" : "the private key does not belong to the certificate")
        } else {
            report.add("key-match", .skipped, "no private key given")
        }

        report.add(
            "nfc", .passed,
            report.isNFCEnabled
                ? "NFC-enabled (\"Pass Type ID with NFC\")" : "not NFC-enabled: passes with an nfc dictionary need an NFC certificate")

        let wwdrCandidates = input.wwdr.map { [$0] } ?? input.p12?.chain ?? []
        if wwdrCandidates.isEmpty {
            report.add("wwdr", .failed, "no WWDR intermediate given\(appleIssuer.map { ": use Certificates/apple/\($0.file)" } ?? "")")
        } else if wwdrCandidates.contains(where: { PassSignature.issued($0, certificate) }) {
            report.add("wwdr", .passed, "\(input.wwdrSource ?? "the intermediate") issued the certificate")
        } else {
            let given = wwdrCandidates[0]
            report.add(
                "wwdr", .failed,
                "\(input.wwdrSource ?? "the intermediate") (\(given.commonName ?? given.subject)\(given.organizationalUnit.map { ", \($0)" } ?? "")) did not issue this certificate\(appleIssuer.map { "; use Certificates/apple/\($0.file)" } ?? "")"
            )
        }

        if let p12 = input.p12 {
            report.add(
                "p12-cipher", p12.usesLegacyCipher ? .warning : .passed,
                p12.usesLegacyCipher
                    ? "the .p12 uses the legacy cipher \(p12.encryption) (macOS Keychain style); Passmint reads it, plain OpenSSL 3 needs -legacy"
                    : "the .p12 uses \(p12.encryption)")
        }
        return report
    }
}
