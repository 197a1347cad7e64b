import Foundation
import Passmint

/// Secrets given as files, as container platforms mount them (Docker and compose secrets, Kubernetes Secret volumes):
/// `PASSMINT_API_KEY_FILE=/run/secrets/api-key` gives `PASSMINT_API_KEY` the file's text, and so for every
/// `PASSMINT_*` variable (`PASSMINT_DATABASE_URL_FILE`, `PASSMINT_LINK_SECRET_FILE`, …) and for the variable
/// `--api-key-env` names. The text's final line ending is dropped; a byte order mark and CRLF are read as text files
/// are everywhere (`FileIO.readText`).
package enum SecretFiles {
    /// `environment` with each `<NAME>_FILE` replaced by `<NAME>` holding its file's text. A variable given both ways,
    /// an empty file, or a file that cannot be read is refused, naming the variable and the file.
    package static func expand(_ environment: [String: String], also names: Set<String> = []) throws(ConfigurationError) -> [String: String]
    {
        var expanded = environment
        // A setting whose own variable ends so (PASSMINT_CONFIG_FILE) is that setting, not a secret's file.
        let settings = Set(ServeSettings.all.map(\.variable))
        for (variable, path) in environment where variable.hasSuffix("_FILE") && !settings.contains(variable) {
            let name = String(variable.dropLast(5))
            guard name.hasPrefix("PASSMINT_") || names.contains(name), !name.hasPrefix("PASSMINT_TEST_") else { continue }
            if environment[name] != nil {
                throw ConfigurationError("both \(name) and \(variable) are set: keep one (\(variable) names a file holding the value)")
            }
            let text: String
            do {
                text = String(decoding: try FileIO.readText(path, what: "secret file", maximumBytes: 64 * 1024), as: UTF8.self)
            } catch {
                throw ConfigurationError("\(variable): \(error.message)")
            }
            var value = Substring(text)
            while value.last == "\n" || value.last == "\r" { value = value.dropLast() }
            if value.isEmpty { throw ConfigurationError("\(variable): the file \(path) is empty; put the value of \(name) in it") }
            expanded[name] = String(value)
            expanded[variable] = nil
        }
        return expanded
    }
}
