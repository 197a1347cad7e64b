import ArgumentParser
import Foundation
import Passmint

/// The password of an encrypted private key or a `.p12`, from an environment variable or a file, never from the
/// command line: the signing key (``SigningOptions``), the bundle `certs import` reads, the merchant keys of `pay`.
struct PassphraseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Environment variable holding the password of the key or the .p12 (never given on the command line).",
            valueName: "VAR"))
    var passphraseEnv: String?

    @Option(help: ArgumentHelp("File whose first line is the password of the key or the .p12.", valueName: "file"))
    var passphraseFile: String?

    func validate() throws {
        if passphraseEnv != nil && passphraseFile != nil {
            throw ValidationError("use either --passphrase-env or --passphrase-file, not both")
        }
    }

    /// The password given, nil when none was.
    func passphrase() throws -> String? {
        if let name = passphraseEnv {
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw ValidationError("--passphrase-env \(name): the environment variable \(name) is not set")
            }
            return value
        }
        if let path = passphraseFile {
            // Its first line, as a file saved on Windows (CRLF, a byte order mark) holds it too.
            let bytes = try FileIO.readText(path, what: "passphrase file", maximumBytes: 64 << 10)
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
                ?? ""
        }
        return nil
    }
}
