public import Passmint

/// A setting the service cannot start with; the message names the setting, where its value came from (flag, variable
/// or config-file key), the value, and what to give instead.
public struct ConfigurationError: CodedError, Equatable {
    public enum Code: String, Sendable, CustomStringConvertible {
        /// A setting's value cannot be used (its message names the setting, where it came from, and what it takes).
        case invalidSetting = "invalid-setting"

        public var description: String { rawValue }
    }

    public var code: Code { .invalidSetting }
    public var message: String
    /// The setting refused (`port`), when one is.
    public var setting: String?
    /// Where the refused value came from.
    public var origin: SettingOrigin?
    /// The refused value, as given.
    public var value: String?

    public init(_ message: String) { self.message = message }

    /// A value refused: `setting port, from PASSMINT_PORT: "80a" is not a port number (0–65535)`.
    public init(setting: String, origin: SettingOrigin, value: String, allowed: String) {
        self.init("setting \(setting), from \(origin): \"\(value)\" is not \(allowed)")
        self.setting = setting
        self.origin = origin
        self.value = value
    }
}
