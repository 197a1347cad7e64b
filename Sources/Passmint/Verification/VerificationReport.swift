import Foundation

/// The result of ``PassVerifier/verify(_:source:lint:now:)``: every check with its outcome, what the signature holds, and the
/// lint findings on the contents.
public struct VerificationReport: Sendable {
    public enum Status: String, Sendable {
        case passed, failed, warning, skipped

        /// `ok  `, `FAIL`, `warn`, `skip`: the mark the human reports print before a check.
        public var mark: String {
            switch self {
            case .passed: "ok  "
            case .failed: "FAIL"
            case .warning: "warn"
            case .skipped: "skip"
            }
        }
    }

    /// One check. Names are stable: `zip`, `entries`, `pass-json`, `manifest`, `manifest-hashes`, `signature-format`,
    /// `signature-detached`, `signature-valid`, `signing-time`, `intermediate`, `signer-validity`, `signer-identity`, `chain`,
    /// `lint`.
    public struct Check: Sendable {
        public var name: String
        public var status: Status
        public var detail: String

        public init(name: String, status: Status, detail: String) {
            self.name = name
            self.status = status
            self.detail = detail
        }
    }

    /// The file that was checked.
    public var source: String
    public var checks: [Check] = []
    public var signature: SignatureInspection?
    public var lint: [Diagnostic] = []

    /// True when no check failed and lint found no error.
    public var isValid: Bool { !checks.contains { $0.status == .failed } }

    public func check(_ name: String) -> Check? { checks.first { $0.name == name } }

    mutating func add(_ name: String, _ status: Status, _ detail: String) {
        checks.append(Check(name: name, status: status, detail: detail))
    }

    mutating func add(_ check: Check) { checks.append(check) }

    /// The `manifest` check, shared by passes and orders: `manifest` lists every file of the package but itself and the
    /// signature, and nothing else.
    mutating func addManifestListing(_ manifest: JSONObject, files: [String: [UInt8]]) {
        let listed = Set(manifest.keys)
        let unlisted = files.keys.filter { $0 != "manifest.json" && $0 != "signature" && !listed.contains($0) }.sorted()
        let missing = manifest.keys.filter { files[$0] == nil && $0 != "manifest.json" && $0 != "signature" }.sorted()
        var problems: [String] = []
        let forbidden = ["manifest.json", "signature"].filter { listed.contains($0) }
        if !forbidden.isEmpty {
            problems.append(
                "the manifest lists \(forbidden.joined(separator: " and ")), which it must not (it lists every file but itself and the signature)"
            )
        }
        if !unlisted.isEmpty { problems.append("files not in the manifest: \(unlisted.joined(separator: ", "))") }
        if !missing.isEmpty { problems.append("manifest entries with no file: \(missing.joined(separator: ", "))") }
        add(
            "manifest", problems.isEmpty ? .passed : .failed,
            problems.isEmpty ? "lists every file (\(listed.count)) except manifest.json and signature" : problems.joined(separator: "; "))
    }

    /// The `manifest-hashes` check: every file the manifest lists has the digest it lists, by `algorithm` (`SHA-1` for
    /// a pass, which Wallet reads in either case; `SHA-256`, lowercase, for an order).
    mutating func addManifestHashes(
        _ manifest: JSONObject, files: [String: [UInt8]], algorithm: String, matches: (String?, [UInt8]) -> Bool
    ) {
        let mismatched = files.keys.filter { $0 != "manifest.json" && $0 != "signature" && manifest[$0] != nil }.sorted()
            .filter { !matches(manifest[$0]?.stringValue, files[$0]!) }
        add(
            "manifest-hashes", mismatched.isEmpty ? .passed : .failed,
            mismatched.isEmpty
                ? "every \(algorithm) matches"
                : "\(algorithm) differs for \(mismatched.joined(separator: ", ")): the file changed after signing")
    }

    /// Records the lint findings on the contents and the `lint` check that counts them.
    mutating func addLint(_ findings: [Diagnostic]) {
        lint = findings
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        add("lint", errors > 0 ? .failed : (warnings > 0 ? .warning : .passed), "\(errors) error(s), \(warnings) warning(s)")
    }
}

extension VerificationReport {
    /// The report as JSON: `{"file", "valid", "checks": [{"name", "status", "detail"}], "signature": {…}, "lint": [...]}`.
    public var json: JSONValue {
        let formatter = ISO8601DateFormatter()
        var object: JSONObject = ["file": .string(source), "valid": .bool(isValid)]
        object["checks"] = .array(
            checks.map { ["name": .string($0.name), "status": .string($0.status.rawValue), "detail": .string($0.detail)] })
        if let signature {
            var info: JSONObject = [
                "encoding": .string(signature.encoding), "detached": .bool(signature.isDetached),
                "digest": .string(signature.digestAlgorithm),
                "signerIdentifier": .string(signature.signerIdentifier),
            ]
            info["signingTime"] = signature.signingTime.map { .string(formatter.string(from: $0)) } ?? .null
            info["signer"] = signature.signer.map { .string($0.subject) } ?? .null
            info["certificates"] = .array(signature.otherCertificates.map { .string($0.subject) })
            object["signature"] = .object(info)
        }
        object["lint"] = .array(lint.map(\.json))
        return .object(object)
    }
}

extension Diagnostic {
    /// `{"severity", "code", "file", "path", "message", "fix"}`.
    public var json: JSONValue {
        [
            "severity": .string(severity.rawValue), "code": .string(code), "file": .string(file), "path": .string(path),
            "message": .string(message), "fix": .string(fix),
        ]
    }
}
