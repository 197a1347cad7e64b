import Configuration
import Foundation
import SystemPackage

/// How the command line and the config file become providers, refusing what is not a setting.
extension SettingSources {
    /// The settings on the command line: `--name value`, `--name=value`, and for a switch `--name` or `--no-name`.
    static func commandLineValues(_ arguments: [String]) throws(ConfigurationError) -> [AbsoluteConfigKey: ConfigValue] {
        let byFlag = Dictionary(
            ServeSettings.all.flatMap { setting in
                setting.isSwitch ? [("--" + setting.name, setting), ("--no-" + setting.name, setting)] : [("--" + setting.name, setting)]
            }, uniquingKeysWith: { first, _ in first })
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let flag = String(parts[0])
            guard flag.hasPrefix("--"), let setting = byFlag[flag] else {
                throw ConfigurationError(
                    "\(argument) is not an option of passmint serve: see passmint serve --help for its options and settings")
            }
            let text: String
            if setting.isSwitch {
                guard parts.count == 1 else {
                    throw ConfigurationError("\(flag) takes no value: give \(flag) alone, or set \(setting.variable)=\(parts[1])")
                }
                text = flag.hasPrefix("--no-") ? "false" : "true"
            } else if parts.count == 2 {
                text = String(parts[1])
            } else if let next = rest.first, !next.hasPrefix("--") {
                text = next
                rest = rest.dropFirst()
            } else {
                throw ConfigurationError("\(flag) needs a value: \(setting.allowed)")
            }
            let key = AbsoluteConfigKey([setting.name])
            if setting.repeatable, case .string(let earlier) = values[key]?.content {
                values[key] = ConfigValue(.string(earlier + "," + text), isSecret: false)
                continue
            }
            guard values[key] == nil else {
                throw ConfigurationError("--\(setting.name) is given twice on the command line: give it once")
            }
            values[key] = ConfigValue(.string(text), isSecret: false)
        }
        return values
    }

    /// The config file as a provider; a missing or malformed file, or a key that is no setting, is refused.
    static func fileProvider(_ path: String, origin: SettingOrigin) async throws(ConfigurationError) -> FileProvider<JSONSnapshot> {
        let provider: FileProvider<JSONSnapshot>
        let object: [String: Any]?
        do {
            provider = try await FileProvider<JSONSnapshot>(filePath: FilePath(path))
            object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        } catch {
            throw ConfigurationError(
                "the config file \(path) (from \(origin)) cannot be read as a JSON object of settings: \(String(describing: error).trimmingCharacters(in: ["."])). Give a file like {\"port\": 8080}"
            )
        }
        let keys = Set(ServeSettings.all.compactMap(\.fileKey))
        for (key, value) in object ?? [:] {
            guard keys.contains(key) else {
                throw ConfigurationError(
                    "the config file \(path) has the key \"\(key)\", which is no setting of passmint serve: its keys are \(keys.sorted().joined(separator: ", "))"
                )
            }
            if value is [String: Any] || value is NSNull {
                throw ConfigurationError(
                    setting: key, origin: .file(path: path, key: key), value: value is NSNull ? "null" : "an object",
                    allowed: "a value: give text, a number, true or false, or a list of text")
            }
        }
        return provider
    }
}
