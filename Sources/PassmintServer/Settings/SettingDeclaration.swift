import Foundation

/// What a setting of `passmint serve` is, apart from its Swift type: everything the command line, the environment,
/// the config file, `serve --help` and docs/configuration.md say about it comes from here.
package struct SettingDeclaration: Sendable, Hashable {
    /// What a setting is when it is not given.
    package enum Default: Sendable, Hashable {
        /// No value: the feature it sets is off, or the setting is required.
        case none
        /// This text, read like a given value.
        case value(String)
        /// Worked out at start-up, as this says (`beside the SQLite file`).
        case described(String)
    }

    /// The name in kebab case (`public-url`): the config-file key; the flag is `--` and the name, the variable
    /// `PASSMINT_` and the name in upper snake case.
    package let name: String
    /// What the value is (`url`, `duration`); empty for a switch.
    package let valueName: String
    package let defaultValue: Default
    /// One sentence or two for `--help` and the docs.
    package let help: String
    /// What a value must be (`a port number (0–65535)`), completing "… is not".
    package let allowed: String
    /// A switch takes no value on the command line: `--name` turns it on, `--no-name` off.
    package let isSwitch: Bool
    /// Whether the config file may set it (not the config file's own path).
    package let inFile: Bool
    /// Whether the command line may give it several times: its values are then one list, joined with commas.
    package let repeatable: Bool

    /// The flag that changes it from its default: `--port`, `--allow-http`, or `--no-fast-path` for a switch that is on.
    package var flag: String { isSwitch && defaultValue == .value("true") ? "--no-" + name : "--" + name }
    package var variable: String { "PASSMINT_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }
    /// The config file's key, or nil when the file cannot set it.
    package var fileKey: String? { inFile ? name : nil }
    /// How the flag is written in help: `--port <port>`.
    package var usage: String { valueName.isEmpty ? flag : "\(flag) <\(valueName)>" }
    /// The default as help and docs show it, or nil.
    package var defaultText: String? {
        switch defaultValue {
        case .none: nil
        case .value(let text): isSwitch ? (text == "true" ? "on" : "off") : text
        case .described(let text): text
        }
    }
}

/// A setting of `passmint serve`, declared once in ``ServeSettings`` with its name, default, help, and how its text
/// becomes a value.
package struct ServeSetting<Value: Sendable>: Sendable {
    package let declaration: SettingDeclaration
    /// The value of a text, or nil when the text is not one (``SettingDeclaration/allowed`` says what is); a
    /// thrown ``SettingValueRefusal`` adds why.
    let parse: @Sendable (String) throws(SettingValueRefusal) -> Value?

    init(
        _ name: String, _ valueName: String, default defaultValue: SettingDeclaration.Default = .none, allowed: String,
        help: String, isSwitch: Bool = false, inFile: Bool = true, repeatable: Bool = false,
        parse: @escaping @Sendable (String) throws(SettingValueRefusal) -> Value?
    ) {
        declaration = SettingDeclaration(
            name: name, valueName: valueName, defaultValue: defaultValue, help: help, allowed: allowed, isSwitch: isSwitch,
            inFile: inFile, repeatable: repeatable)
        self.parse = parse
    }

    /// The value of `text`, or an error naming the setting, where the text came from and what is allowed.
    func value(of text: String, from origin: SettingOrigin) throws(ConfigurationError) -> Value {
        let parsed: Value?
        var allowed = declaration.allowed
        do { parsed = try parse(text) } catch {
            parsed = nil
            allowed += " (\(error.reason))"
        }
        guard let parsed else { throw ConfigurationError(setting: declaration.name, origin: origin, value: text, allowed: allowed) }
        return parsed
    }
}

/// Why a text is not a setting's value, beyond what the setting allows (`proxy.local is not an IP address`).
struct SettingValueRefusal: Error {
    var reason: String
}

/// The part of a ``ServeSetting`` that does not depend on its type, for listing every setting.
protocol DeclaredSetting {
    var declaration: SettingDeclaration { get }
    /// Reads the setting from `sources`, refusing a value that is not one of its.
    func check(_ sources: SettingSources) throws(ConfigurationError)
}

extension ServeSetting: DeclaredSetting {
    func check(_ sources: SettingSources) throws(ConfigurationError) { _ = try sources.value(self) }
}
