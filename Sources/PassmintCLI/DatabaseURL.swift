import Foundation

/// What the CLI checks on a database URL given on its command line.
enum DatabaseURL {
    /// Whether `url` is a `postgres://` URL carrying a password (`postgres://user:password@host/db`), which `ps` shows
    /// to every user of the machine while the command runs.
    static func hasPassword(_ url: String) -> Bool {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"), let components = URLComponents(string: url) else {
            return false
        }
        return !(components.password ?? "").isEmpty
    }
}
