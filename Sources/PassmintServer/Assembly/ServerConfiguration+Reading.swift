import Foundation
import Logging
public import Passmint

extension ServerConfiguration {
    /// A setting of `passmint serve`: a command-line option (`--public-url`) and an environment variable
    /// (`PASSMINT_PUBLIC_URL`). The option wins over the variable, the variable over the default.
    public enum Setting: CaseIterable, Sendable {
        case host, port, templates, publicURL, databaseURL, apnsURL, apnsCA, apnsKey, apnsKeyID, apnsTeamID
        /// `0` sends every request through the router (`--no-fast-path`).
        case fastPath
        /// `1` accepts an http public URL (`--allow-http`).
        case allowHTTP
        /// How long public links last: seconds, or a number with `m`, `h` or `d` (`30d`).
        case linkLifetime
        /// How long a node holds the pushes it claimed before other nodes may take them (`60s`): after a crash, what
        /// it held goes out once this has passed.
        case pushLease
        /// Where bulk changes keep their uploads and progress (``ServerConfiguration/jobsFolder``).
        case jobsFolder
        /// How long a connection may take to send a request's head (``ConnectionLimits/headerTimeout``).
        case headerTimeout
        /// How long a request may go without a byte in either direction (``ConnectionLimits/idleTimeout``).
        case idleTimeout
        /// How many connections are open at once at most (``ConnectionLimits/maximumConnections``).
        case maxConnections
        /// The longest text value of a pass's data a bulk change takes, in bytes (``JobLimits/maximumValueBytes``).
        case maxValueSize
        /// Failures written to a job's failures file (``JobLimits/failuresKept``).
        case jobFailuresKept
        /// How long a job's upload is kept after the job ended (``JobLimits/uploadRetention``); `0`: removed then.
        case jobUploadRetention
        /// Free bytes kept on the jobs folder's disk for the store (``JobLimits/diskReserve``).
        case jobsDiskReserve
        /// How long a request's whole body may take (``ConnectionLimits/bodyTimeout``).
        case bodyTimeout
        /// How many connections one address may have open (``ConnectionLimits/maximumConnectionsPerAddress``).
        case maxConnectionsPerAddress
        /// Proxies whose `Forwarded`/`X-Forwarded-For` name the client (``ServerConfiguration/trustedProxies``): a
        /// comma-separated list of addresses or CIDR networks.
        case trustedProxy

        /// The setting's name in kebab case: `publicURL` → `public-url`, `apnsKeyID` → `apns-key-id`.
        var name: String {
            var name = ""
            var previous: Character?
            for character in String(describing: self) {
                if character.isUppercase, previous?.isLowercase == true { name.append("-") }
                name.append(character)
                previous = character
            }
            return name.lowercased()
        }

        public var option: String { "--" + name }
        public var environmentVariable: String { "PASSMINT_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }
    }

    /// Reads the configuration: every ``Setting`` from `options` (the command line), else from `environment`, else
    /// its default; the API key from the variable `apiKeyVariable` names (never from the command line, where other
    /// users could read it); the log level from `LOG_LEVEL`. Errors (``ConfigurationError``) name the option and the
    /// variable. The link secret comes from `PASSMINT_LINK_SECRET` (never the command line). `identities` loads the signing identities once the settings are known to be usable.
    public init(
        options: [Setting: String], environment: [String: String], apiKeyVariable: String = "PASSMINT_API_KEY",
        identities: () throws -> SigningIdentities
    ) throws {
        func value(_ setting: Setting) -> String? { options[setting] ?? environment[setting.environmentVariable] }
        func invalid(_ setting: Setting, _ text: String, _ expected: String) -> ConfigurationError {
            ConfigurationError("\(setting.option) (or \(setting.environmentVariable)) \"\(text)\" is not \(expected)")
        }
        guard let publicURL = value(.publicURL) else {
            throw ConfigurationError("give --public-url (or PASSMINT_PUBLIC_URL), e.g. https://passes.example.com/wallet")
        }
        guard let url = URL(string: publicURL), url.host != nil else {
            throw invalid(.publicURL, publicURL, "a URL: give the service's public URL, e.g. https://passes.example.com/wallet")
        }
        let allowHTTP = value(.allowHTTP) == "1"
        switch url.scheme?.lowercased() {
        case "https": break
        case "http" where allowHTTP: break
        case "http":
            throw ConfigurationError(
                """
                --public-url \(publicURL) uses http, and Wallet talks only to https web services (lint refuses such passes). \
                Give the https URL your TLS proxy serves, or add --allow-http (PASSMINT_ALLOW_HTTP=1) for development devices \
                with Settings › Developer › Allow HTTP Services turned on.
                """)
        default:
            throw ConfigurationError("--public-url \(publicURL) must be an https URL, e.g. https://passes.example.com/wallet")
        }
        let apiKey = environment[apiKeyVariable]
        if let apiKey, apiKey.count < 16 {
            throw ConfigurationError("the API key in \(apiKeyVariable) must have at least 16 characters")
        }
        let linkSecret = environment["PASSMINT_LINK_SECRET"]
        if let linkSecret, linkSecret.count < 32 {
            throw ConfigurationError(
                "the link secret in PASSMINT_LINK_SECRET must have at least 32 characters (e.g. the output of openssl rand -base64 32)")
        }
        let linkLifetime = try value(.linkLifetime).map { text throws(ConfigurationError) in
            guard let lifetime = Self.duration(text) else {
                throw invalid(.linkLifetime, text, "a duration: seconds, or a number followed by m, h or d (e.g. 30d)")
            }
            return lifetime
        }
        let eventRetention = try environment["PASSMINT_EVENTS_RETENTION"].map { text throws(ConfigurationError) in
            guard let retention = Self.duration(text), retention >= .seconds(86_400) else {
                throw ConfigurationError(
                    "PASSMINT_EVENTS_RETENTION is \(text); give a duration of at least a day: seconds, or a number followed by m, h or d (e.g. 90d)"
                )
            }
            return retention
        }
        let pushLease = try value(.pushLease).map { text throws(ConfigurationError) in
            guard let lease = Self.duration(text) else {
                throw invalid(.pushLease, text, "a duration: seconds, or a number followed by m, h or d (e.g. 60s)")
            }
            return lease
        }
        func durationSetting(_ setting: Setting) throws(ConfigurationError) -> Duration? {
            guard let text = value(setting) else { return nil }
            guard let duration = Self.duration(text) else {
                throw invalid(setting, text, "a duration: seconds, or a number followed by m, h or d (e.g. 30s)")
            }
            return duration
        }
        let headerTimeout = try durationSetting(.headerTimeout)
        let idleTimeout = try durationSetting(.idleTimeout)
        let bodyTimeout = try durationSetting(.bodyTimeout)
        func countSetting(_ setting: Setting) throws(ConfigurationError) -> Int? {
            guard let text = value(setting) else { return nil }
            guard let count = Int(text), count >= 1 else { throw invalid(setting, text, "a whole number of connections, at least 1") }
            return count
        }
        let maxConnections = try countSetting(.maxConnections)
        let maxConnectionsPerAddress = try countSetting(.maxConnectionsPerAddress)
        let trustedProxies = try value(.trustedProxy).map { text throws(ConfigurationError) in
            switch IPNetwork.list(text) {
            case .success(let networks): return networks
            case .failure(let error):
                throw invalid(.trustedProxy, text, "a list of IP addresses or networks (\(error.message)), e.g. 10.0.0.0/8,192.0.2.7")
            }
        }
        let jobLimits = try Self.readJobLimits(value, invalid)
        let port = try value(.port).map { text throws(ConfigurationError) in
            guard let port = Int(text), (0...65_535).contains(port) else { throw invalid(.port, text, "a port number (0–65535)") }
            return port
        }
        let endpoint = try value(.apnsURL).map { text throws(ConfigurationError) in
            guard let url = URL(string: text), url.host != nil else {
                throw invalid(.apnsURL, text, "a URL, e.g. https://api.push.apple.com")
            }
            return url
        }
        self.init(publicURL: publicURL, identities: try identities())
        self.apiKey = apiKey
        self.linkSecret = linkSecret
        self.linkLifetime = linkLifetime
        self.allowHTTP = allowHTTP
        if let pushLease { self.pushLease = pushLease }
        if let eventRetention { self.eventRetention = eventRetention }
        if let headerTimeout { connections.headerTimeout = headerTimeout }
        if let idleTimeout { connections.idleTimeout = idleTimeout }
        if let maxConnections { connections.maximumConnections = maxConnections }
        self.jobLimits = jobLimits
        if let bodyTimeout { connections.bodyTimeout = bodyTimeout }
        if let maxConnectionsPerAddress { connections.maximumConnectionsPerAddress = maxConnectionsPerAddress }
        if let trustedProxies { self.trustedProxies = trustedProxies }
        if let host = value(.host) { self.host = host }
        if let port { self.port = port }
        if let databaseURL = value(.databaseURL) { self.databaseURL = databaseURL }
        if let templates = value(.templates) { templatesFolder = templates }
        if let jobs = value(.jobsFolder) { jobsFolder = jobs }
        if let endpoint { apns.endpoint = endpoint }
        apns.trustRootsFile = value(.apnsCA)
        apns.authKeyFile = value(.apnsKey)
        apns.keyIdentifier = value(.apnsKeyID)
        apns.teamIdentifier = value(.apnsTeamID)
        fastPath = value(.fastPath) != "0"
        logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    }

    /// The bounds of bulk changes from their settings.
    private static func readJobLimits(
        _ value: (Setting) -> String?, _ invalid: (Setting, String, String) -> ConfigurationError
    ) throws(ConfigurationError) -> JobLimits {
        var limits = JobLimits()
        if let text = value(.maxValueSize) {
            guard let bytes = JobLimits.bytes(text), bytes >= 1, bytes <= Int64(JobLineReader.maximumLine) else {
                throw invalid(.maxValueSize, text, "a size in bytes from 1 to 16m: a number, or one followed by k, m or g (e.g. 64k)")
            }
            limits.maximumValueBytes = Int(bytes)
        }
        if let text = value(.jobFailuresKept) {
            guard let count = Int(text), count >= 0 else { throw invalid(.jobFailuresKept, text, "a whole number of failures, 0 or more") }
            limits.failuresKept = count
        }
        if let text = value(.jobUploadRetention) {
            let retention: Duration? = text == "0" ? .zero : duration(text)
            guard let retention else {
                throw invalid(.jobUploadRetention, text, "0 or a duration: seconds, or a number followed by m, h or d (e.g. 7d)")
            }
            limits.uploadRetention = retention
        }
        if let text = value(.jobsDiskReserve) {
            guard let bytes = JobLimits.bytes(text) else {
                throw invalid(.jobsDiskReserve, text, "a size in bytes: a number, or one followed by k, m or g (e.g. 256m)")
            }
            limits.diskReserve = bytes
        }
        return limits
    }

    /// `3600`, `90m`, `12h` or `30d`: a positive whole number of seconds, minutes, hours or days.
    public static func duration(_ text: String) -> Duration? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        let unit = text.last.flatMap { units[$0] }
        guard let number = Int64(unit == nil ? Substring(text) : text.dropLast()), number > 0 else { return nil }
        let (seconds, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        return overflow ? nil : .seconds(seconds)
    }
}
