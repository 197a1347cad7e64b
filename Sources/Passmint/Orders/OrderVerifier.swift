public import Foundation

/// Checks a finished `.order` package made by anyone: the archive, `order.json`, the manifest (SHA-256 only), the
/// detached signature, the Order Type ID certificate (UID `order.…` equal to `orderTypeIdentifier`, the team as OU),
/// the chain, then the order lint rules; given the previous version, the changes between the two.
public struct OrderVerifier: Sendable {
    /// The trusted root (Apple Root CA for real orders). Without one the chain check is skipped.
    public var root: Certificate?
    /// The team the signer must belong to (the certificate's OU); any team when nil.
    public var team: String?

    public init(root: Certificate? = nil, team: String? = nil) {
        self.root = root
        self.team = team
    }

    /// Verifies the bytes of an `.order`. `previous`, the `order.json` of the version before, adds the rules between
    /// versions (statuses that cannot go back, `updatedAt` that must grow). `now` is the time a signature without a
    /// signing time is checked at.
    public func verify(_ bytes: [UInt8], source: String, previous: JSONObject? = nil, now: Date = Date()) -> VerificationReport {
        var report = VerificationReport(source: source)
        guard let entries = report.readArchive(bytes, source: source) else { return report }
        let (files, stray, unsafe) = PackageEntries.sort(entries)
        if !unsafe.isEmpty {
            report.add("entries", .failed, PackageEntries.unsafeDetail(unsafe))
        } else if !stray.isEmpty {
            report.add("entries", .failed, "stray entries: \(stray.joined(separator: ", ")); \(PackageEntries.strayFix)")
        } else {
            report.add("entries", .passed, "files at the root and in .lproj folders only")
        }

        var order: JSONObject?
        if let bytes = files["order.json"] {
            if let object = try? JSONParser.value(bytes).objectValue {
                order = object
                report.add("order-json", .passed, "valid JSON object")
            } else {
                report.add("order-json", .failed, "order.json is not a JSON object")
            }
        } else {
            report.add(
                "order-json", .failed, files["pass.json"] != nil ? "this is a pass (pass.json), not an order" : "no order.json at the root")
        }
        let manifestBytes = files["manifest.json"]
        checkManifest(manifestBytes, files: files, report: &report)
        checkSignature(files["signature"], manifest: manifestBytes ?? [], order: order, now: now, report: &report)

        if let order {
            let contents = files.filter { !["order.json", "manifest.json", "signature"].contains($0.key) }
                .map { PassContents.File(path: $0.key, bytes: $0.value) }.sorted { $0.path < $1.path }
            report.addLint(
                OrderLinter.lint(json: order, files: contents) + (previous.map { OrderLinter.lint(json: order, previous: $0) } ?? []))
        }
        return report
    }

    /// `manifest.json`: every file but itself and the signature, each with its SHA-256 (SHA-1, a pass's hash, fails).
    private func checkManifest(_ bytes: [UInt8]?, files: [String: [UInt8]], report: inout VerificationReport) {
        guard let bytes, let manifest = try? JSONParser.value(bytes).objectValue else {
            report.add("manifest", .failed, bytes == nil ? "no manifest.json" : "manifest.json is not a JSON object")
            return
        }
        report.addManifestListing(manifest, files: files)
        let values = manifest.map { ($0.key, $0.value.stringValue ?? "") }
        let sha1 = values.filter { $0.1.utf8.count == 40 }.map(\.0)
        let other = values.filter {
            $0.1.utf8.count != 64 || !$0.1.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
        .map(\.0)
        if !sha1.isEmpty {
            report.add(
                "manifest-algorithm", .failed,
                "the manifest holds SHA-1 hashes (40 hex digits, as passes use) for \(sha1.sorted().joined(separator: ", ")): an order's manifest holds SHA-256 (64 lowercase hex digits); build it again with SHA-256"
            )
        } else if !other.isEmpty {
            report.add(
                "manifest-algorithm", .failed,
                "not a SHA-256 in lowercase hex for \(other.sorted().joined(separator: ", ")): write 64 lowercase hex digits per file")
        } else {
            report.add("manifest-algorithm", .passed, "SHA-256 (64 lowercase hex digits) for every file")
        }
        report.addManifestHashes(manifest, files: files, algorithm: "SHA-256") { $0 == Digest.sha256Hex($1) }
    }
}
