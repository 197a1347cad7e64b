import Foundation

extension VerificationReport {
    /// Reads the `signature` file over `manifest` and adds its checks (``addSignatureChecks(_:)``): the inspection and
    /// the signer's certificate, or nil with the failed check when there is no signature, it is not CMS SignedData over
    /// data, or it does not carry its signer's certificate. Passes and orders read their signatures alike.
    mutating func inspectSignature(_ bytes: [UInt8]?, manifest: [UInt8]) -> (SignatureInspection, Certificate)? {
        guard let bytes else {
            add("signature-format", .failed, "no signature file")
            return nil
        }
        guard let inspection = PassSignature.inspect(bytes, content: manifest) else {
            add("signature-format", .failed, "signature is not a PKCS#7/CMS SignedData structure (PEM instead of DER? damaged?)")
            return nil
        }
        signature = inspection
        guard inspection.contentType == "pkcs7-data" else {
            add(
                "signature-format", .failed,
                "the SignedData's content type is \(inspection.contentType), not id-data: this signature is not over a manifest; sign manifest.json as data"
            )
            return nil
        }
        addSignatureChecks(inspection)
        guard let signer = inspection.signer else {
            add("intermediate", .failed, "the signer's certificate is not in the signature")
            return nil
        }
        return (inspection, signer)
    }

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

    /// The `chain` check: the signer verifies to `root` at the signing time with the intermediates the signature
    /// carries; only with one of `knownIntermediates` added, a warning. Skipped without a root.
    mutating func addChain(
        _ signer: Certificate, _ inspection: SignatureInspection, root: Certificate?, knownIntermediates: [Certificate] = []
    ) {
        guard let root else {
            add("chain", .skipped, "no --ca given")
            return
        }
        let time = inspection.signingTime
        guard let failure = PassSignature.verifyChain(leaf: signer, intermediates: inspection.otherCertificates, root: root, at: time)
        else {
            add("chain", .passed, "verifies to \(root.commonName ?? root.subject) at the signing time")
            return
        }
        if !knownIntermediates.isEmpty,
            PassSignature.verifyChain(leaf: signer, intermediates: inspection.otherCertificates + knownIntermediates, root: root, at: time)
                == nil
        {
            add(
                "chain", .warning,
                "verifies to \(root.commonName ?? "the root") only with an intermediate the signature does not carry (\(failure))")
        } else {
            let moment = time.map { " at \(ISO8601DateFormatter().string(from: $0))" } ?? ""
            add("chain", .failed, "does not verify to \(root.commonName ?? "the root")\(moment): \(failure)")
        }
    }
}
