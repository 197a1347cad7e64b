public import Foundation

/// Apple Pay test vectors, made once per test process by `Tests/ApplePay/make_tokens.py` (Python's `cryptography`,
/// written independently of PassmintPay) into a temporary folder: a test CA with Apple's marker OIDs, merchant
/// certificates and keys, good tokens and the tamper set. No key is committed.
public struct ApplePayVectors: Sendable {
    /// The folder the script wrote (see the script's docstring for its files).
    public let folder: URL

    /// A file of the folder, e.g. `merchant-ec.pem`.
    public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    /// The token `tokens/<name>.json`.
    public func tokenPath(_ name: String) -> String { path("tokens/\(name).json") }
    public func token(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: tokenPath(name)))) }

    /// The time the good tokens were signed, and one a minute later to verify them at.
    public static let signedAt = Date(timeIntervalSince1970: 1_768_471_200)  // 2026-01-15T10:00:00Z
    public static let verifyAt = signedAt.addingTimeInterval(60)
}

extension TestEnvironment {
    private static let applePayResult: Result<ApplePayVectors, any Error> = Result {
        try requirePythonCryptography()
        let folder = temporaryFolder("apple-pay-vectors")
        let result = try run("python3", ["Tests/ApplePay/make_tokens.py", folder.path], in: repositoryRoot)
        guard result.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "make_tokens.py failed: \(result.stderr)"])
        }
        return ApplePayVectors(folder: folder)
    }

    /// The Apple Pay test vectors, made on first use.
    public static func applePayVectors() throws -> ApplePayVectors { try applePayResult.get() }

    /// Installs Python's `cryptography` with pip when it is missing (as scripts/install-dependencies.sh does).
    static func requirePythonCryptography() throws {
        if try run("python3", ["-c", "import cryptography"]).status == 0 { return }
        let pip = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "cryptography"]
        if try run("python3", pip).status == 0 { return }
        let result = try run("python3", pip + ["--break-system-packages"])
        guard result.status == 0 else {
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot install Python's cryptography: \(result.stderr)"])
        }
    }
}
