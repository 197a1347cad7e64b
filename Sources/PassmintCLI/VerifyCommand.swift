import ArgumentParser
import Foundation
import Passmint

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a finished .pkpass made by anyone: archive, manifest, signature, certificates, chain, then lint.",
        discussion: """
            With --ca the chain must verify to that root at the signing time, so a pass signed while its certificate \
            was valid still verifies after the certificate expired. For passes signed by Apple-issued certificates use \
            --ca Certificates/apple/AppleRootCA.pem. Exit status 1 when any check fails or lint finds an error.
            """
    )

    @Argument(help: ArgumentHelp("The .pkpass to check.", valueName: "file.pkpass"))
    var file: String

    @Option(help: ArgumentHelp("Trusted root certificate (PEM or DER).", valueName: "root.pem"))
    var ca: String?

    @Flag(help: "Print every check and finding as JSON.")
    var json = false

    @Flag(help: "Accept an http:// webServiceURL (development devices only) as a warning.")
    var allowHTTP = false

    func run() async throws {
        let bytes = try FileIO.read(file, what: "pass")
        let root = try ca.map { try Certificate(contentsOf: $0) }
        let verifier = PassVerifier(root: root, knownIntermediates: AppleCertificates.wwdrIntermediates.map(\.certificate), lintOptions: LintOptions(allowHTTPWebService: allowHTTP))
        let report = verifier.verify(bytes, source: file)
        if json {
            print(JSONWriter.string(report.json), terminator: "")
        } else {
            for check in report.checks { print(check.line) }
            for diagnostic in report.lint { print("     \(diagnostic)") }
            print(report.isValid ? "\(file): valid" : "\(file): INVALID")
        }
        if !report.isValid { throw ExitCode(1) }
    }
}

extension VerificationReport.Check {
    /// `ok   chain: verifies to …`, as the human reports print a check.
    var line: String {
        let mark = switch status {
        case .passed: "ok  "
        case .failed: "FAIL"
        case .warning: "warn"
        case .skipped: "skip"
        }
        return "\(mark) \(name): \(detail)"
    }
}
