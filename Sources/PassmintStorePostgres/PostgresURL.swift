import Foundation
import NIOSSL
import PassmintStore
import PostgresNIO

/// What a `postgres://user:password@host:port/database?sslmode=…&sslrootcert=…` URL says, read as libpq reads it:
/// `?host=/socket/dir` for a Unix socket, `sslmode` (`disable`, `prefer`, the default, `require`, `verify-ca`,
/// `verify-full`) and `sslrootcert` (a PEM file of the certificate authorities to trust, or `system`).
public struct PostgresURL: Sendable {
    /// How much TLS the connection insists on, as libpq names it.
    public enum SSLMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, its certificate not checked.
        case prefer
        /// TLS or no connection; the certificate checked against `sslrootcert` only when one is given.
        case require
        /// TLS, the certificate signed by a trusted authority; its name not checked.
        case verifyCA = "verify-ca"
        /// TLS, the certificate signed by a trusted authority and made out to the host connected to.
        case verifyFull = "verify-full"
    }

    public let host: String
    public let port: Int
    /// The folder of the server's Unix socket (`?host=`), nil over TCP.
    public let socketDirectory: String?
    public let user: String
    let password: String?
    public let database: String
    public let sslMode: SSLMode
    /// The `sslrootcert` given, nil when none was.
    public let sslRootCertificate: String?
    /// What TLS the client speaks: nil when `sslmode=disable` or over a Unix socket.
    let tls: TLSConfiguration?
    /// How long the first query at start-up may wait (`connect_timeout`, whole seconds as libpq reads them; 10 s).
    let connectTimeout: Duration

    /// Reads `url`; throws naming the option that is wrong (an unknown `sslmode`, an unreadable `sslrootcert`).
    public init(_ url: String) throws {
        guard let components = URLComponents(string: url), components.scheme == "postgres" || components.scheme == "postgresql" else {
            throw PassStoreError(.database, "\(Self.redacted(url)) is not a postgres://user:password@host:port/database URL")
        }
        func option(_ name: String) -> String? { components.queryItems?.last { $0.name == name }?.value }
        user = components.user ?? "postgres"
        password = components.password
        database = components.path.count > 1 ? String(components.path.dropFirst()) : user
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        port = components.port ?? 5432
        socketDirectory = option("host")
        connectTimeout = .seconds(max(1, option("connect_timeout").flatMap(Int.init) ?? 10))
        let modeText = option("sslmode") ?? SSLMode.prefer.rawValue
        guard let mode = SSLMode(rawValue: modeText) else {
            throw PassStoreError(
                .database,
                "the database URL's sslmode=\(modeText) is not a TLS mode: give sslmode=disable, prefer, require, verify-ca or verify-full")
        }
        sslRootCertificate = option("sslrootcert")
        // libpq: sslrootcert=system trusts the system's authorities and checks the name as verify-full does.
        sslMode = sslRootCertificate == "system" && mode != .disable ? .verifyFull : mode
        if socketDirectory != nil, sslMode != .disable, sslMode != .prefer {
            throw PassStoreError(
                .database,
                "the database URL names a Unix socket (host=\(socketDirectory!)), which carries no TLS, but asks for sslmode=\(modeText): "
                    + "connect over TCP (postgres://user@host:port/db) or leave sslmode out")
        }
        tls = socketDirectory == nil && sslMode != .disable ? try Self.tlsConfiguration(sslMode, root: sslRootCertificate) : nil
    }

    private static func tlsConfiguration(_ mode: SSLMode, root: String?) throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable, .prefer: tls.certificateVerification = .none
        case .require: tls.certificateVerification = root == nil ? .none : .noHostnameVerification
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        guard let root, root != "system", mode != .prefer else { return tls }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(root)
        } catch {
            let exists = FileManager.default.fileExists(atPath: root)
            throw PassStoreError(
                .database,
                "the database URL's sslrootcert=\(root) "
                    + (exists
                        ? "holds no PEM certificate (\(error)): give the PEM file of the authority that signed the server's certificate"
                        : "does not exist: give the path of the PEM file of the authority that signed the server's certificate"))
        }
        guard !certificates.isEmpty else {
            throw PassStoreError(.database, "the database URL's sslrootcert=\(root) holds no PEM certificate")
        }
        tls.trustRoots = .certificates(certificates)
        return tls
    }

    /// The URL with its password replaced by `***`, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// Where it connects, for messages: `host:port`, or the socket.
    public var place: String { socketDirectory.map { "the socket in \($0)" } ?? "\(host):\(port)" }

    /// Whether the URL carries a password (which `ps` shows when the URL is on a command line).
    public var hasPassword: Bool { !(password ?? "").isEmpty }

    /// Where it connects and how long the first query may wait, for ``PostgresPassStore``.
    public var endpoint: PostgresEndpoint {
        PostgresEndpoint(
            description: socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } ?? "\(host):\(port)", connectTimeout: connectTimeout)
    }

    /// The client's configuration (before its pool options).
    var clientConfiguration: PostgresClient.Configuration {
        if let socketDirectory {
            return .init(
                unixSocketPath: socketDirectory + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        let mode: PostgresClient.Configuration.TLS =
            switch (sslMode, tls) {
            case (_, nil): .disable
            case (.prefer, let tls?): .prefer(tls)
            case (_, let tls?): .require(tls)
            }
        return .init(host: host, port: port, username: user, password: password, database: database, tls: mode)
    }
}
