import Foundation

/// How `passmint serve` runs.
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// The service's public base URL, written into every pass as `webServiceURL` (e.g.
    /// `https://passes.example.com/wallet`). Its path is the prefix Apple's endpoints are mounted under.
    public var publicURL: String
    /// The folder holding the templates (`<Name>.pass/`) that the issuing API names.
    public var templatesFolder: String
    /// The bearer token of the issuing API; nil disables the API (every call answers 401).
    public var apiKey: String?
    /// Largest request body accepted (413 beyond).
    public var maxBodySize: Int
    /// How many device log messages are kept for the operator.
    public var logLimit: Int
    /// Answer the serial-number poll and the 304 of the latest-pass endpoint from memory on the connection's event
    /// loop when the answer is cached (see `DeviceFastPath`), instead of going through the router.
    public var fastPath: Bool

    public init(host: String = "127.0.0.1", port: Int = 8080, publicURL: String, templatesFolder: String = "PassTemplates",
                apiKey: String? = nil, maxBodySize: Int = 64 * 1024, logLimit: Int = 1000, fastPath: Bool = true) {
        self.host = host
        self.port = port
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.templatesFolder = templatesFolder
        self.apiKey = apiKey
        self.maxBodySize = maxBodySize
        self.logLimit = logLimit
        self.fastPath = fastPath
    }

    /// The path Apple's endpoints live under: the path of ``publicURL`` (`/wallet`), or empty.
    public var pathPrefix: String {
        let path = URL(string: publicURL)?.path ?? ""
        return path == "/" ? "" : path
    }
}
