import ArgumentParser
import Foundation
import Passmint

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract:
            "Check a finished .pkpass (or every pass of a .pkpasses bundle, or a Wallet .order): archive, manifest, signature, certificates, chain, then lint.",
        discussion: """
            A .pkpasses bundle must hold only .pkpass files, at most 10 and 150 MB in all; each pass in it is verified \
            and reported under its entry name.


            With --ca the chain must verify to that root at the signing time, so a pass signed while its certificate \
            was valid still verifies after the certificate expired. For passes signed by Apple-issued certificates use \
            --ca Certificates/apple/AppleRootCA.pem. Exit status 1 when any check fails or lint finds an error.

            Orders (.order, or an archive holding order.json): the manifest must hold SHA-256 hashes (a SHA-1 manifest \
            fails), the signer must be an Order Type ID certificate whose UID (order.…) is the orderTypeIdentifier, of \
            the team given with --team; then the order lint rules. With --previous (the earlier .order or its \
            order.json) the changes are checked too: a completed or cancelled order cannot be open again, a delivered \
            or picked-up fulfillment cannot go back, updatedAt must be later.
            """
    )

    @Argument(help: ArgumentHelp("The .pkpass or .pkpasses to check.", valueName: "file.pkpass"))
    var file: String

    @Option(help: ArgumentHelp("Trusted root certificate (PEM or DER).", valueName: "root.pem"))
    var ca: String?

    @Option(help: ArgumentHelp("Orders: the version before this one (.order or order.json), to check the changes.", valueName: "file"))
    var previous: String?

    @Option(help: ArgumentHelp("Orders: the team identifier the signing certificate's OU must be.", valueName: "team-id"))
    var team: String?

    @Flag(help: "Print every check and finding as JSON.")
    var json = false

    @Flag(help: "Accept an http:// webServiceURL (development devices only) as a warning.")
    var allowHTTP = false

    func run() async throws {
        let bytes = try FileIO.readArchive(file, what: "pass")
        let root = try ca.map { try Certificate(contentsOf: $0) }
        if Self.isOrder(bytes, file: file) { return try verifyOrder(bytes, root: root) }
        let verifier = PassVerifier(
            root: root, knownIntermediates: AppleCertificates.wwdrIntermediates.map(\.certificate),
            lintOptions: LintOptions(allowHTTPWebService: allowHTTP))
        if file.lowercased().hasSuffix(".pkpasses") || PassBundle.looksLikeBundle(bytes) {
            try verifyBundle(bytes, verifier: verifier)
            return
        }
        let report = verifier.verify(bytes, source: file)
        try show(report)
    }

    /// Prints the report (as JSON with `--json`); exit status 1 when the file is not valid.
    func show(_ report: VerificationReport) throws {
        if json {
            print(JSONWriter.string(report.json), terminator: "")
        } else {
            for check in report.checks { print(check.line) }
            for diagnostic in report.lint { print("     \(diagnostic)") }
            print(report.isValid ? "\(file): valid" : "\(file): INVALID")
        }
        if !report.isValid { throw ExitCode(1) }
    }

    private func verifyBundle(_ bytes: [UInt8], verifier: PassVerifier) throws {
        let entries: [PassBundle.Entry]
        do {
            entries = try PassBundle.read(bytes, source: file)
        } catch {
            if json {
                print(
                    JSONWriter.string(["bundle": .string(file), "valid": false, "error": .string(error.message), "passes": []]),
                    terminator: "")
            } else {
                print("FAIL bundle: \(error.message)")
                print("\(file): INVALID")
            }
            throw ExitCode(1)
        }
        let reports = entries.map { verifier.verify($0.archive, source: file + "/" + $0.name) }
        let valid = reports.allSatisfy(\.isValid)
        if json {
            print(
                JSONWriter.string(["bundle": .string(file), "valid": .bool(valid), "passes": .array(reports.map(\.json))]), terminator: "")
        } else {
            print("ok   bundle: \(entries.count) pass(es), \(PassBundle.megabytes(bytes.count))")
            for report in reports {
                print("\(report.source):")
                for check in report.checks { print("  \(check.line)") }
                for diagnostic in report.lint { print("       \(diagnostic)") }
                print(report.isValid ? "  valid" : "  INVALID")
            }
            print(valid ? "\(file): valid (\(entries.count) passes)" : "\(file): INVALID")
        }
        if !valid { throw ExitCode(1) }
    }
}

extension VerificationReport.Check {
    /// `ok   chain: verifies to …`, as the human reports print a check.
    var line: String { "\(status.mark) \(name): \(detail)" }
}
