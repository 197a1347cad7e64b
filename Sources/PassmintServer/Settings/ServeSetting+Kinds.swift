import Foundation
import PassmintStore

/// The kinds of setting: each says what text it takes, how it becomes a value, and what help says it allows.
extension ServeSetting where Value == String {
    /// Any text: an address, a path, an identifier. A `repeatable` one may be given several times on the command line
    /// (the values joined with commas, as a list in the variable or the config file is).
    static func text(
        _ name: String, _ valueName: String, default defaultValue: SettingDeclaration.Default = .none, help: String,
        inFile: Bool = true, repeatable: Bool = false
    ) -> Self {
        Self(name, valueName, default: defaultValue, allowed: "any text", help: help, inFile: inFile, repeatable: repeatable) { $0 }
    }

    /// One word of `choices`.
    static func choice(_ name: String, among choices: [String], default defaultValue: String, help: String) -> Self {
        Self(
            name, choices.joined(separator: "|"), default: .value(defaultValue), allowed: choices.joined(separator: " or "), help: help
        ) { choices.contains($0) ? $0 : nil }
    }
}

extension ServeSetting where Value == URL {
    /// An absolute URL with a host.
    static func url(_ name: String, example: String, default defaultValue: SettingDeclaration.Default = .none, help: String) -> Self {
        Self(name, "url", default: defaultValue, allowed: "a URL, e.g. \(example)", help: help) { text in
            URL(string: text).flatMap { $0.host == nil ? nil : $0 }
        }
    }
}

extension ServeSetting where Value == Bool {
    /// On or off: `--name` or `--no-name` on the command line, `1`/`0` or `true`/`false` elsewhere.
    static func `switch`(_ name: String, default on: Bool, help: String) -> Self {
        Self(name, "", default: .value(on ? "true" : "false"), allowed: "1, 0, true or false", help: help, isSwitch: true) { text in
            switch text.lowercased() {
            case "1", "true": true
            case "0", "false": false
            default: nil
            }
        }
    }
}

extension ServeSetting where Value == Int {
    /// A whole number from `range`, of `unit` (`connections`).
    static func count(
        _ name: String, of unit: String, from minimum: Int, default defaultValue: SettingDeclaration.Default, help: String
    ) -> Self {
        let allowed = minimum == 0 ? "a whole number of \(unit), 0 or more" : "a whole number of \(unit), at least \(minimum)"
        return Self(name, "N", default: defaultValue, allowed: allowed, help: help) { text in
            Int(text).flatMap { $0 >= minimum ? $0 : nil }
        }
    }

    /// A TCP port, 0 for a free one.
    static func port(_ name: String, default defaultValue: SettingDeclaration.Default, help: String) -> Self {
        Self(name, "port", default: defaultValue, allowed: "a port number (0–65535)", help: help) { text in
            Int(text).flatMap { (0...65_535).contains($0) ? $0 : nil }
        }
    }
}

extension ServeSetting where Value == Duration {
    /// Seconds, or a number followed by `s`, `m`, `h` or `d`; `0` too when `zero` is allowed.
    static func duration(
        _ name: String, example: String, zero: Bool = false, atLeast minimum: (duration: Duration, text: String)? = nil,
        default defaultValue: SettingDeclaration.Default = .none, help: String
    ) -> Self {
        let units = "seconds, or a number followed by s, m, h or d (e.g. \(example))"
        let kind = (zero ? "0 or a duration" : "a duration") + (minimum.map { " of at least \($0.text)" } ?? "")
        return Self(name, "duration", default: defaultValue, allowed: kind + ": " + units, help: help) { text in
            guard let duration = zero && text == "0" ? .zero : ServerConfiguration.duration(text) else { return nil }
            return duration >= (minimum?.duration ?? .zero) ? duration : nil
        }
    }
}

extension ServeSetting where Value == Int64 {
    /// Bytes, or a number followed by `k`, `m` or `g`, from `minimum` to `maximum`.
    static func size(
        _ name: String, example: String, minimum: Int64 = 0, maximum: (bytes: Int64, text: String)? = nil,
        default defaultValue: SettingDeclaration.Default, help: String
    ) -> Self {
        let range = maximum.map { " from \(minimum) to \($0.text)" } ?? ""
        let allowed = "a size in bytes\(range): a number, or one followed by k, m or g (e.g. \(example))"
        return Self(name, "size", default: defaultValue, allowed: allowed, help: help) { text in
            JobLimits.bytes(text).flatMap { $0 >= minimum && $0 <= (maximum?.bytes ?? .max) ? $0 : nil }
        }
    }
}

extension ServeSetting where Value == [IPNetwork] {
    /// Addresses or CIDR networks, comma-separated (a list in the config file).
    static func networks(_ name: String, example: String, help: String) -> Self {
        Self(name, "CIDR", allowed: "a list of IP addresses or networks, e.g. \(example)", help: help) {
            (text) throws(SettingValueRefusal) in
            switch IPNetwork.list(text) {
            case .success(let networks): return networks
            case .failure(let error): throw SettingValueRefusal(reason: error.message)
            }
        }
    }
}

extension ServeSetting where Value == PassKey {
    /// A pass: its pass type identifier and serial number, `pass.com.example/1234`.
    static func pass(_ name: String, example: String, help: String) -> Self {
        Self(name, "type/serial", allowed: "a pass type identifier and a serial number, e.g. \(example)", help: help) { text in
            guard let slash = text.firstIndex(of: "/"), slash != text.startIndex, text.index(after: slash) != text.endIndex else {
                return nil
            }
            return PassKey(passTypeIdentifier: String(text[..<slash]), serialNumber: String(text[text.index(after: slash)...]))
        }
    }
}

extension ServeSetting where Value == DatabaseLocation {
    /// A SQLite file path or a PostgreSQL URL (``DatabaseLocation``).
    static func database(_ name: String, default defaultValue: SettingDeclaration.Default, help: String) -> Self {
        Self(name, "url", default: defaultValue, allowed: "a SQLite file path or a postgres://user@host:port/db URL", help: help) {
            (text) throws(SettingValueRefusal) in
            do { return try DatabaseLocation(text) } catch {
                throw SettingValueRefusal(reason: (error as? PassStoreError)?.message ?? String(describing: error))
            }
        }
    }
}
