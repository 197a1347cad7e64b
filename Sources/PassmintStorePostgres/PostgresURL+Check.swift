import Logging
import NIOSSL
import PassmintStore
import PostgresNIO

extension PostgresURL {
    /// Opens one connection as the client will and closes it, so that a refused certificate or a server without TLS
    /// is reported at once, in the URL's terms (the client's pool would retry it quietly). Any other failure (the
    /// server not up yet) is left to the client, which retries.
    func checkTLS(logger: Logger) async throws {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = .init(
                unixSocketPath: socketDirectory + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            var mode = PostgresConnection.Configuration.TLS.disable
            if let tls {
                let context = try NIOSSLContext(configuration: tls)
                mode = sslMode == .prefer ? .prefer(context) : .require(context)
            }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: mode)
        }
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            if let explanation = explanation(of: error) { throw explanation }
            return
        }
        try? await connection.close()
    }

    /// What a connection that failed on TLS means, naming the URL option to change; nil for other failures.
    func explanation(of error: any Error) -> PassStoreError? {
        let detail = (error as? PSQLError)?.underlying.map { String(reflecting: $0) } ?? String(reflecting: error)
        if let psql = error as? PSQLError, psql.code == .sslUnsupported {
            return PassStoreError(
                .database,
                "PostgreSQL at \(place) does not offer TLS, which sslmode=\(sslMode.rawValue) requires: turn ssl on in the server, "
                    + "or give sslmode=prefer (TLS when offered) or sslmode=disable")
        }
        if detail.contains("failedToValidateHostname") || (detail.contains("hostname") && detail.contains("NIOSSL")) {
            return PassStoreError(
                .database,
                "PostgreSQL at \(place) sent a certificate made out to another name than \(host) (sslmode=verify-full checks it): "
                    + "connect by a name the certificate holds, or give sslmode=verify-ca to check only who signed it (\(detail))")
        }
        if detail.contains("CERTIFICATE_VERIFY_FAILED") || detail.contains("certificate verify failed") {
            let root = sslRootCertificate.map { "sslrootcert=\($0)" } ?? "the system's authorities (no sslrootcert given)"
            return PassStoreError(
                .database,
                "PostgreSQL at \(place) sent a certificate that does not verify against \(root), as sslmode=\(sslMode.rawValue) "
                    + "requires: give in sslrootcert the PEM file of the authority that signed the server's certificate, or "
                    + "sslmode=require to encrypt without checking it (\(detail))")
        }
        return nil
    }
}
