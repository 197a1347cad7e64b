public import Foundation
public import Passmint

/// Checks a token's signature exactly as Apple describes: the leaf (OID 1.2.840.113635.100.6.29) and the
/// intermediate (1.2.840.113635.100.6.2.14) are in the signature, they chain to Apple Root CA - G3 at the verification
/// time, the leaf signed `ephemeralPublicKey`/`wrappedKey` ‖ `data` ‖ `transactionId` ‖ `applicationData`, and the CMS
/// signing time lies within ``signingTimeWindow`` of the verification time. Immutable but for the chains it remembers
/// having checked (``VerifiedChains``): share one.
public struct PaymentSignatureVerifier: Sendable {
    /// The OID that marks Apple Pay's signing (leaf) certificate.
    public static let leafOID = "1.2.840.113635.100.6.29"
    /// The OID that marks Apple Application Integration CA - G3, the intermediate.
    public static let intermediateOID = "1.2.840.113635.100.6.2.14"
    /// The SHA-256 fingerprint of Apple Root CA - G3, which the shipped copy must have.
    public static let appleRootCAG3Fingerprint =
        "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79"
    /// Five minutes: a token reaches the merchant's server seconds after the payment sheet; Apple advises refusing
    /// one signed more than a few minutes before (a replay).
    public static let defaultSigningTimeWindow: Duration = .seconds(300)

    /// The root the chain must end at: Apple Root CA - G3, or a test root.
    public let root: Certificate
    /// How far the signing time may lie from the verification time, before or after.
    public let signingTimeWindow: Duration
    /// The chains checked to ``root`` before, so that each token does not verify the same certificates again.
    private let verifiedChains = VerifiedChains()

    /// How many signing chains (leaf and intermediate) this verifier remembers having checked to its root.
    package var rememberedChainCount: Int { verifiedChains.count }

    /// Trusts the shipped Apple Root CA - G3, after checking its pinned fingerprint.
    public init(signingTimeWindow: Duration = defaultSigningTimeWindow) throws(PaymentTokenError) {
        guard let root = AppleCertificates.rootCAG3, root.sha256Fingerprint == Self.appleRootCAG3Fingerprint else {
            throw PaymentTokenError(
                .untrustedChain,
                "the shipped Apple Root CA - G3 is missing or its SHA-256 fingerprint is not \(Self.appleRootCAG3Fingerprint): reinstall Passmint"
            )
        }
        self.init(root: root, signingTimeWindow: signingTimeWindow)
    }

    /// FOR TESTS ONLY: trusts `testOnlyRoot` instead of Apple Root CA - G3, so that tokens signed by a test CA verify.
    /// Never use it with tokens from devices.
    public init(testOnlyRoot: Certificate, signingTimeWindow: Duration = defaultSigningTimeWindow) {
        self.init(root: testOnlyRoot, signingTimeWindow: signingTimeWindow)
    }

    private init(root: Certificate, signingTimeWindow: Duration) {
        self.root = root
        self.signingTimeWindow = signingTimeWindow
    }

    /// What a verified signature tells.
    public struct Verified: Sendable {
        /// The CMS signing time.
        public var signingTime: Date
        public var leaf: Certificate
        public var intermediate: Certificate
    }

    /// Verifies `token`'s signature at `time` (default: now; give the time a stored token was received to check it
    /// again later).
    public func verify(_ token: PaymentToken, at time: Date = Date()) throws(PaymentTokenError) -> Verified {
        guard let inspection = PassSignature.inspect(token.signature, content: token.signedBytes) else {
            throw PaymentTokenError(
                .invalidSignature, "paymentData.signature is not a CMS SignedData (PKCS #7): the token was altered or truncated")
        }
        guard inspection.signerCount == 1 else {
            throw PaymentTokenError(.invalidSignature, "paymentData.signature has \(inspection.signerCount) signers; Apple's has one")
        }
        let certificates = (inspection.signer.map { [$0] } ?? []) + inspection.otherCertificates
        /// The certificates the signature carries, for an error (not worked out for a token that verifies).
        func names() -> String { certificates.isEmpty ? "none" : certificates.map { $0.commonName ?? $0.subject }.joined(separator: "; ") }
        guard let leaf = certificates.first(where: { $0.extensionValue(oid: Self.leafOID) != nil }) else {
            throw PaymentTokenError(
                .missingCertificate,
                "the signature carries no leaf certificate with Apple Pay's marker OID \(Self.leafOID) (its certificates: \(names())): the token was not signed by Apple Pay"
            )
        }
        guard let intermediate = certificates.first(where: { $0.extensionValue(oid: Self.intermediateOID) != nil }) else {
            throw PaymentTokenError(
                .missingCertificate,
                "the signature carries no intermediate certificate with OID \(Self.intermediateOID) (Apple Application Integration CA - G3; its certificates: \(names())): the token was not signed by Apple Pay"
            )
        }
        let leafDER = leaf.derBytes
        guard let signer = inspection.signer, signer.derBytes == leafDER else {
            throw PaymentTokenError(
                .missingCertificate,
                "the signature was made by \(inspection.signer.map { $0.commonName ?? $0.subject } ?? "a certificate it does not carry"), not by the leaf with OID \(Self.leafOID)"
            )
        }
        guard inspection.digestAlgorithm == "SHA256" else {
            throw PaymentTokenError(
                .invalidSignature,
                "the signature's digest algorithm is \(inspection.digestAlgorithm), not SHA-256 as Apple Pay's: the token was not signed by Apple Pay"
            )
        }
        let chain = VerifiedChains.Chain(leaf: leafDER, intermediate: intermediate.derBytes)
        if !verifiedChains.covers(chain, at: time) {
            try checkChain(leaf: leaf, intermediate: intermediate, at: time)
            verifiedChains.remember(chain, leaf: leaf, intermediate: intermediate, root: root)
        }
        guard inspection.verifies else {
            throw PaymentTokenError(
                .signatureMismatch,
                "the signature does not match this token's ephemeralPublicKey/wrappedKey ‖ data ‖ transactionId \(token.header.transactionIdHex)\(token.header.applicationData == nil ? "" : " ‖ applicationData"): one of them was altered after Apple signed it; ask for the token again",
                libraryErrors: inspection.verificationError.map { [$0] } ?? [])
        }
        guard let signingTime = inspection.signingTime else {
            throw PaymentTokenError(.invalidSignature, "the signature has no CMS signing time; Apple's always has one")
        }
        try checkSigningTime(signingTime, at: time)
        return Verified(signingTime: signingTime, leaf: leaf, intermediate: intermediate)
    }

    private func checkChain(leaf: Certificate, intermediate: Certificate, at time: Date) throws(PaymentTokenError) {
        let rootName = root.commonName ?? root.subject
        guard intermediate.issued(leaf) else {
            throw PaymentTokenError(
                .untrustedChain,
                "the leaf \(leaf.commonName ?? leaf.subject) was not issued by the intermediate \(intermediate.commonName ?? intermediate.subject) the signature carries"
            )
        }
        guard root.issued(intermediate) else {
            throw PaymentTokenError(
                .untrustedChain,
                "the intermediate \(intermediate.commonName ?? intermediate.subject) was not issued by \(rootName) (SHA-256 \(root.sha256Fingerprint)): the token was not signed by Apple Pay"
            )
        }
        if let reason = PassSignature.verifyChain(leaf: leaf, intermediates: [intermediate], root: root, at: time) {
            throw PaymentTokenError(
                .untrustedChain,
                "the signing certificates do not chain to \(rootName) at \(RFC3339Date.string(from: time)): \(reason) (give the time the token was received with the verification time)"
            )
        }
    }

    private func checkSigningTime(_ signingTime: Date, at time: Date) throws(PaymentTokenError) {
        let difference = time.timeIntervalSince(signingTime)
        let allowed = Double(signingTimeWindow.components.seconds)
        guard abs(difference) > allowed else { return }
        throw PaymentTokenError(
            .signingTimeOutOfWindow,
            "the signing time \(RFC3339Date.string(from: signingTime)) is \(Self.span(abs(difference))) \(difference > 0 ? "before" : "after") the verification time \(RFC3339Date.string(from: time)) (allowed: \(Self.span(allowed))): "
                + (difference > 0
                    ? "an old token is refused as a possible replay; to check a stored token, verify at the time it was received"
                    : "check this machine's clock"))
    }

    /// A span in its largest whole unit: `5 years`, `3 days`, `7 minutes`, `1 second`.
    static func span(_ seconds: Double) -> String {
        let units: [(String, Double)] = [("year", 365.25 * 86_400), ("day", 86_400), ("hour", 3600), ("minute", 60), ("second", 1)]
        for (name, size) in units where seconds >= size {
            let count = Int(seconds / size)
            return "\(count) \(name)\(count == 1 ? "" : "s")"
        }
        return "\(Int(seconds)) seconds"
    }
}
