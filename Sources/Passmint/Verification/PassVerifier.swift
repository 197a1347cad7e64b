public import Foundation

/// Checks a finished `.pkpass` made by anyone: archive, manifest, signature, certificates, chain, then lint.
///
/// It accepts what Wallet accepts (BER or DER signatures, SHA-1 or SHA-256 digests, CMS version 1 or 3 signer
/// identifiers, a tolerated trailing comma) and reports each such difference precisely.
public struct PassVerifier: Sendable {
    /// The trusted root (Apple Root CA for real passes). Without one the chain check is skipped.
    public var root: Certificate?
    /// Intermediates to try when the signature's own certificates do not complete the chain (e.g. Passmint's copies
    /// of Apple's WWDR certificates); a chain that needs them is reported as a warning.
    public var knownIntermediates: [Certificate]
    public var lintOptions: LintOptions

    public init(root: Certificate? = nil, knownIntermediates: [Certificate] = [], lintOptions: LintOptions = .init()) {
        self.root = root
        self.knownIntermediates = knownIntermediates
        self.lintOptions = lintOptions
    }

    /// Verifies the bytes of a `.pkpass`. `source` names it in the report. With `lint: false` the contents are not
    /// linted (the structural and cryptographic checks still run). `now` is the time a signature without a signing time
    /// is checked at.
    public func verify(_ bytes: [UInt8], source: String, lint: Bool = true, now: Date = Date()) -> VerificationReport {
        var report = VerificationReport(source: source)
        guard let entries = report.readArchive(bytes, source: source) else { return report }

        // Entries: files at the root or in <lang>.lproj/, no folders of other names, no OS litter (PackageEntries).
        let (files, stray, unsafe) = PackageEntries.sort(entries)
        // manifest.json (read here: whether a stray file is listed decides how much it matters)
        let manifestBytes = files["manifest.json"]
        var manifest: JSONObject?
        if let manifestBytes, let object = try? JSONParser.value(manifestBytes).objectValue {
            manifest = object
        }
        if unsafe.isEmpty {
            checkStray(stray, files: files, manifest: manifest, report: &report)
        } else {
            report.add("entries", .failed, PackageEntries.unsafeDetail(unsafe))
        }

        // pass.json
        var passJSON: JSONObject?
        if let passBytes = files["pass.json"] {
            let (json, diagnostics) = PassContents.parsePassJSON(passBytes)
            passJSON = json
            if json == nil {
                report.add("pass-json", .failed, diagnostics.first?.message ?? "pass.json is not a JSON object")
            } else if let comma = diagnostics.first(where: { $0.code == "json-trailing-comma" }) {
                report.add("pass-json", .warning, "parses, with a \(comma.message) (Wallet accepts it)")
            } else {
                report.add("pass-json", .passed, "valid JSON object")
            }
        } else {
            report.add("pass-json", .failed, "no pass.json at the root of the archive")
        }

        // manifest.json
        if let manifest {
            report.addManifestListing(manifest, files: files)
            report.addManifestHashes(manifest, files: files, algorithm: "SHA-1") { $0?.lowercased() == Digest.sha1Hex($1) }
        } else {
            report.add("manifest", .failed, manifestBytes == nil ? "no manifest.json" : "manifest.json is not a JSON object")
        }

        // signature and certificates
        if case (let inspection, let signer)? = report.inspectSignature(files["signature"], manifest: manifestBytes ?? []) {
            let issuers = inspection.otherCertificates.filter { PassSignature.issued($0, signer) }
            if let issuer = issuers.first {
                report.add(
                    "intermediate", .passed,
                    "carries the intermediate that issued the signer: \(issuer.commonName ?? issuer.subject)\(issuer.organizationalUnit.map { " (\($0))" } ?? "")"
                )
            } else if let other = inspection.otherCertificates.first {
                report.add(
                    "intermediate", .warning,
                    "carries \(other.commonName ?? other.subject)\(other.organizationalUnit.map { " (\($0))" } ?? ""), but the signer was issued by \(signer.issuerCommonName ?? signer.issuer)\(signer.issuerOrganizationalUnit.map { " (\($0))" } ?? "")"
                )
            } else {
                report.add(
                    "intermediate", .failed,
                    "no intermediate certificate in the signature; include the WWDR intermediate that issued the signer")
            }
            report.add(Self.signerValidity(signer, signingTime: inspection.signingTime, now: now))
            if let passJSON {
                let uid = signer.userID ?? "(none)"
                let ou = signer.organizationalUnit ?? "(none)"
                let typeID = passJSON["passTypeIdentifier"]?.stringValue ?? "(none)"
                let team = passJSON["teamIdentifier"]?.stringValue ?? "(none)"
                if uid == typeID && ou == team {
                    report.add("signer-identity", .passed, "certificate UID \(uid) and OU \(ou) match the pass")
                } else {
                    report.add(
                        "signer-identity", .failed,
                        "certificate UID \"\(uid)\" / OU \"\(ou)\" but pass.json has passTypeIdentifier \"\(typeID)\" / teamIdentifier \"\(team)\""
                    )
                }
            }
            report.addChain(signer, inspection, root: root, knownIntermediates: knownIntermediates)
        }
        if lint { finish(&report, passJSON: passJSON, files: files, stray: Set(stray)) }
        return report
    }

    /// Files outside the places Wallet reads (`.DS_Store`, `__MACOSX/`, other folders). Wallet installs a pass whose
    /// stray files the manifest lists with the right hashes (Apple's own `signpass` run on a Mac folder makes such
    /// passes): a warning. A stray file the manifest does not cover fails.
    private func checkStray(_ stray: [String], files: [String: [UInt8]], manifest: JSONObject?, report: inout VerificationReport) {
        if stray.isEmpty {
            report.add("entries", .passed, "files at the root and in .lproj folders only")
            return
        }
        if files["pass.json"] == nil, stray.contains(where: { $0.hasSuffix("/pass.json") }) {
            report.add("entries", .failed, "the pass is inside a folder (\(stray[0])); zip the folder's contents, not the folder")
            return
        }
        let covered = stray.filter { path in
            path.hasSuffix("/") || files[path].map { manifest?[path]?.stringValue?.lowercased() == Digest.sha1Hex($0) } == true
        }
        let uncovered = stray.filter { !covered.contains($0) }
        if uncovered.isEmpty {
            report.add(
                "entries", .warning,
                "stray entries \(stray.joined(separator: ", ")), listed in the manifest with correct hashes (Wallet installs the pass); "
                    + "remove them from the pass folder before signing")
        } else {
            report.add("entries", .failed, "stray entries: \(uncovered.joined(separator: ", ")); remove them (and rebuild the manifest)")
        }
    }

    /// The signer certificate's validity at the signing time, or now when the signature carries no signing time.
    /// Checked whether or not a root is given: Wallet refuses a pass signed outside its certificate's validity.
    static func signerValidity(_ signer: Certificate, signingTime: Date?, now: Date) -> VerificationReport.Check {
        let formatter = ISO8601DateFormatter()
        let window = "valid \(formatter.string(from: signer.notBefore)) to \(formatter.string(from: signer.notAfter))"
        let (time, moment) =
            signingTime.map { ($0, "at the signing time, \(formatter.string(from: $0))") }
            ?? (now, "now, \(formatter.string(from: now)) (the signature has no signing time)")
        if time > signer.notAfter {
            return .init(
                name: "signer-validity", status: .failed,
                detail: "the signer certificate had expired \(moment): \(window); sign again with a current Pass Type ID certificate")
        }
        if time < signer.notBefore {
            return .init(
                name: "signer-validity", status: .failed,
                detail: "the signer certificate was not yet valid \(moment): \(window); check the signing machine's clock")
        }
        return .init(name: "signer-validity", status: .passed, detail: "the signer certificate was valid \(moment) (\(window))")
    }

    /// Lints the pass's contents; stray files are left to the `entries` check.
    private func finish(_ report: inout VerificationReport, passJSON: JSONObject?, files: [String: [UInt8]], stray: Set<String>) {
        guard let passJSON else { return }
        let contents = PassContents(
            source: report.source, passJSON: passJSON,
            files: files.filter {
                !["pass.json", "manifest.json", "signature"].contains($0.key) && !$0.key.hasSuffix("/") && !stray.contains($0.key)
            }
            .map { PassContents.File(path: $0.key, bytes: $0.value) }.sorted { $0.path < $1.path },
            isTemplate: false)
        report.addLint(PassLinter.lint(contents, options: lintOptions))
    }
}
