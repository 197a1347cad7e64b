import Foundation
import Logging
package import Passmint

extension ServerConfiguration {
    /// Reads the configuration: every setting of ``ServeSettings`` from `settings` (the command line, else the
    /// environment, else the config file, else its default); the API key from the variable `apiKeyVariable` names
    /// (never from the command line, where other users could read it); the link secret from `PASSMINT_LINK_SECRET`; the
    /// log level from `LOG_LEVEL`. Errors (``ConfigurationError``) name the setting, where its value came from, the
    /// value and what it allows. `identities` loads the signing identities once the settings are known to be usable.
    package init(
        settings: SettingSources, environment: [String: String], apiKeyVariable: String = "PASSMINT_API_KEY",
        identities: () throws -> SigningIdentities
    ) throws {
        let declared = ServeSettings.declared
        guard let given = try settings.text(declared.publicURL.declaration) else {
            let setting = declared.publicURL.declaration
            throw ConfigurationError(
                "give \(setting.flag) (or \(setting.variable), or \"\(setting.name)\" in the config file), e.g. https://passes.example.com/wallet"
            )
        }
        let (publicURL, origin) = (given.text, given.origin)
        let url = try declared.publicURL.value(of: publicURL, from: origin)
        let allowHTTP = try settings.value(declared.allowHTTP) ?? false
        switch url.scheme?.lowercased() {
        case "https": break
        case "http" where allowHTTP: break
        case "http":
            throw ConfigurationError(
                """
                \(origin) \(publicURL) uses http, and Wallet talks only to https web services (lint refuses such passes). \
                Give the https URL your TLS proxy serves, or add --allow-http (PASSMINT_ALLOW_HTTP=1) for development devices \
                with Settings › Developer › Allow HTTP Services turned on.
                """)
        default:
            throw ConfigurationError("\(origin) \(publicURL) must be an https URL, e.g. https://passes.example.com/wallet")
        }
        let apiKey = environment[apiKeyVariable]
        if let apiKey, apiKey.count < 16 {
            throw ConfigurationError("the API key in \(apiKeyVariable) must have at least 16 characters")
        }
        let linkSecret = try LinkSecret.read(environment)
        let metricsToken = environment["PASSMINT_METRICS_TOKEN"]
        if let metricsToken, metricsToken.count < 16 {
            throw ConfigurationError("the metrics token in PASSMINT_METRICS_TOKEN must have at least 16 characters")
        }
        try settings.checkAll()  // before the identities load
        self.init(publicURL: publicURL, identities: try identities())
        try readSettings(settings)
        applePay = try ApplePayConfiguration.read(settings, environment: environment)
        merchantIdentity = try MerchantIdentityConfiguration.read(settings, publicURL: publicURL, environment: environment)
        self.apiKey = apiKey
        self.linkSecret = linkSecret
        self.metricsToken = metricsToken
        self.allowHTTP = allowHTTP
        logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    }

    /// Sets every field a setting of ``ServeSettings`` sets.
    private mutating func readSettings(_ settings: SettingSources) throws(ConfigurationError) {
        let declared = ServeSettings.declared
        host = try settings.value(declared.host) ?? host
        port = try settings.value(declared.port) ?? port
        database = try settings.value(declared.databaseURL) ?? database
        templatesFolder = try settings.value(declared.templates) ?? templatesFolder
        orderTemplatesFolder = try settings.value(declared.orderTemplates) ?? orderTemplatesFolder
        if let jobs = try settings.value(declared.jobsFolder) { jobsFolder = jobs }
        apns.endpoint = try settings.value(declared.apnsURL) ?? apns.endpoint
        apns.trustRootsFile = try settings.value(declared.apnsCA)
        apns.authKeyFile = try settings.value(declared.apnsKey)
        apns.keyIdentifier = try settings.value(declared.apnsKeyID)
        apns.teamIdentifier = try settings.value(declared.apnsTeamID)
        apns.connections = try settings.value(declared.apnsConnections) ?? apns.connections
        fastPath = try settings.value(declared.fastPath) ?? fastPath
        logFormat = try settings.value(declared.logFormat) ?? logFormat
        configFile = try settings.value(declared.configFile)
        linkLifetime = try settings.value(declared.linkLifetime)
        pushLease = try settings.value(declared.pushLease) ?? pushLease
        jobLease = try settings.value(declared.jobLease) ?? jobLease
        eventRetention = try settings.value(declared.eventsRetention) ?? eventRetention
        webhooks.allowHTTP = try settings.value(declared.webhooksAllowHTTP) ?? webhooks.allowHTTP
        webhooks.allowPrivate = try settings.value(declared.webhooksAllowPrivate) ?? webhooks.allowPrivate
        webhooks.lease = pushLease
        connections.headerTimeout = try settings.value(declared.headerTimeout) ?? connections.headerTimeout
        connections.idleTimeout = try settings.value(declared.idleTimeout) ?? connections.idleTimeout
        connections.bodyTimeout = try settings.value(declared.bodyTimeout) ?? connections.bodyTimeout
        connections.maximumConnections = try settings.value(declared.maxConnections) ?? connections.maximumConnections
        connections.maximumConnectionsPerAddress =
            try settings.value(declared.maxConnectionsPerAddress) ?? connections.maximumConnectionsPerAddress
        trustedProxies = try settings.value(declared.trustedProxy) ?? trustedProxies
        jobLimits.maximumValueBytes = try settings.value(declared.maxValueSize).map { Int($0) } ?? jobLimits.maximumValueBytes
        jobLimits.failuresKept = try settings.value(declared.jobFailuresKept) ?? jobLimits.failuresKept
        jobLimits.uploadRetention = try settings.value(declared.jobUploadRetention) ?? jobLimits.uploadRetention
        jobLimits.diskReserve = try settings.value(declared.jobsDiskReserve) ?? jobLimits.diskReserve
        selfCheck = try settings.value(declared.selfCheck)
        google = try GoogleConfiguration.read(settings)
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
