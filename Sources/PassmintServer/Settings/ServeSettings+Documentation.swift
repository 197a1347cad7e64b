import Foundation

/// What `passmint serve --help` and docs/configuration.md say of the settings, made from their declarations.
extension ServeSettings {
    /// The settings section of `serve --help`: each setting's flag, variable and config-file key, default and help.
    package static var helpText: String {
        let lines = all.map { setting in
            let sources = ["variable " + setting.variable, setting.fileKey.map { "file key \"\($0)\"" }].compactMap { $0 }
            let origins = sources.joined(separator: ", ") + (setting.defaultText.map { "; default: \($0)" } ?? "")
            return "  \(setting.usage)\n      \(origins)\n      \(setting.help)"
        }
        return """
            SETTINGS: each from its flag, else its environment variable, else its key in the --config-file (JSON), \
            else its default. A switch is on with 1 or true and off with 0 or false in the variable or the file.
            \(lines.joined(separator: "\n"))
            """
    }

    /// The table of settings in docs/configuration.md (a test checks the file holds exactly this).
    package static var markdownTable: String {
        let rows = all.map { setting in
            let cells = [
                "`\(setting.usage)`", "`\(setting.variable)`", setting.fileKey.map { "`\($0)`" } ?? "—",
                setting.defaultText.map { setting.defaultValue == .described($0) ? $0 : "`\($0)`" } ?? "—",
                setting.isSwitch ? "on or off" : setting.allowed, setting.help,
            ]
            return "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        return (["| Flag | Variable | Config-file key | Default | Value | What it sets |", "|---|---|---|---|---|---|"] + rows)
            .joined(separator: "\n") + "\n"
    }
}
