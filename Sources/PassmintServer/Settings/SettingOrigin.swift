/// Where a setting's value came from: the command line, the environment, or the config file.
public enum SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// A command-line flag (`--port`).
    case commandLine(flag: String)
    /// An environment variable (`PASSMINT_PORT`).
    case environment(variable: String)
    /// A key of the config file (`port` in `/etc/passmint/serve.json`).
    case file(path: String, key: String)

    public var description: String {
        switch self {
        case .commandLine(let flag): flag
        case .environment(let variable): variable
        case .file(let path, let key): "key \"\(key)\" of \(path)"
        }
    }
}
