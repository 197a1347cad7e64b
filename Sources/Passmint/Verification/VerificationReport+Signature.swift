import Foundation

extension VerificationReport {
    /// The checks of a detached PKCS #7 signature over `manifest.json` that passes and orders share: its format, that
    /// it is detached, that it verifies, and its signing time.
    mutating func addSignatureChecks(_ inspection: SignatureInspection) {
        add(
            "signature-format", .passed,
            "PKCS#7 SignedData, \(inspection.encoding), digest \(inspection.digestAlgorithm), signer identified by \(inspection.signerIdentifier)"
        )
        add(
            "signature-detached", inspection.isDetached ? .passed : .failed,
            inspection.isDetached
                ? "detached (no embedded content)" : "the manifest is embedded in the signature; Wallet needs a detached signature")
        add(
            "signature-valid", inspection.verifies ? .passed : .failed,
            inspection.verifies
                ? "the signature verifies over manifest.json"
                : "the signature does not verify over manifest.json (\(inspection.verificationError ?? "unknown reason"))")
        if let time = inspection.signingTime {
            add("signing-time", .passed, "signed at \(ISO8601DateFormatter().string(from: time))")
        } else {
            add("signing-time", .failed, "no signing-time attribute; Wallet requires one (never sign with -noattr)")
        }
    }
}
