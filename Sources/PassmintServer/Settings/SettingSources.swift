import Configuration
import Foundation

/// Where `passmint serve` reads its settings, in order: the command line, the `PASSMINT_*` environment variables,
/// then the config file named by `--config-file` (or `PASSMINT_CONFIG_FILE`), each a swift-configuration provider. A
/// value is looked up in each in turn, so that an error can say where the value it refuses came from.
package struct SettingSources: Sendable {
    let commandLine: InMemoryProvider
    let environment: KeyMappingProvider<EnvironmentVariablesProvider>
    private(set) var file: (path: String, provider: FileProvider<JSONSnapshot>)?

    /// Reads `arguments` (serve's settings on the command line, e.g. `["--port", "0"]`), the `PASSMINT_*` variables of
    /// `environment`, and the config file when one is named. Unknown flags or file keys, a flag without its value, and a
    /// file that cannot be read are refused.
    package init(arguments: [String], environment: [String: String]) async throws(ConfigurationError) {
        commandLine = InMemoryProvider(name: "command line", values: try Self.commandLineValues(arguments))
        self.environment = EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: ["passmint"])
        file = nil
        let configFile = ServeSettings.declared.configFile
        if let given = try text(configFile.declaration) {
            file = (given.text, try await Self.fileProvider(given.text, origin: given.origin))
        }
    }

    /// The text given for a setting and where it came from, or nil when no source has it.
    package func text(_ setting: SettingDeclaration) throws(ConfigurationError) -> (text: String, origin: SettingOrigin)? {
        let key = AbsoluteConfigKey([setting.name])
        if let text = try? commandLine.value(forKey: key, type: .string).value.map(Self.text) {
            let flag = setting.isSwitch ? (text == "true" ? "--" : "--no-") + setting.name : setting.flag
            return (text, .commandLine(flag: flag))
        }
        if let text = try? environment.value(forKey: key, type: .string).value.map(Self.text) {
            return (text, .environment(variable: setting.variable))
        }
        if let file, let key = setting.fileKey {
            let origin = SettingOrigin.file(path: file.path, key: key)
            // A file's value may be text, a number, true or false, or a list of text: each becomes its text. A
            // lookup of a key the file lacks answers nil; one of the wrong type throws.
            for type in [ConfigType.string, .int, .double, .bool, .stringArray] {
                guard let found = try? file.provider.value(forKey: AbsoluteConfigKey([key]), type: type) else { continue }
                guard let value = found.value else { return nil }
                return (Self.text(value), origin)
            }
            throw ConfigurationError(
                setting: setting.name, origin: origin, value: "(an object or a mixed list)",
                allowed: "a value: give text, a number, true or false, or a list of text")
        }
        return nil
    }

    /// A setting's value: the first source's, else its default, else nil. A value that is not one of the setting's
    /// is refused, naming the setting, its source, the value and what it allows.
    package func value<Value>(_ setting: ServeSetting<Value>) throws(ConfigurationError) -> Value? {
        if let given = try text(setting.declaration) { return try setting.value(of: given.text, from: given.origin) }
        guard case .value(let text) = setting.declaration.defaultValue else { return nil }
        guard let value = try? setting.parse(text) else {
            preconditionFailure("the default of \(setting.declaration.name) is none of its values")
        }
        return value
    }

    /// Reads every setting, refusing the first value that is not one of its setting's.
    package func checkAll() throws(ConfigurationError) {
        for case let setting as any DeclaredSetting in Mirror(reflecting: ServeSettings.declared).children.map(\.value) {
            try setting.check(self)
        }
    }

    private static func text(_ value: ConfigValue) -> String {
        switch value.content {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .stringArray(let texts): texts.joined(separator: ",")
        default: String(describing: value.content)
        }
    }
}
