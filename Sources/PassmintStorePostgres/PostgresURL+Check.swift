import Logging
import NIOSSL
import PassmintStore
import PostgresNIO

extension PostgresURL {
    /// Opens one connection as the client will and closes it, so that a refused certificate, a server without TLS or
    /// a refused login (a wrong password, `pg_hba.conf`, no such database) is reported at once, in the URL's terms
    /// (the client's pool would retry it quietly). Any other failure (the server not up yet) is left to the client,
    /// which retries.
    func checkTLS(logger: Logger) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: try connectionConfiguration(), id: 0, logger: logger)
        } catch {
            if let explanation = explanation(of: error) { throw explanation }
            return
        }
        try? await connection.close()
    }

    /// One connection of its own, as the client opens them (TLS as the URL asks), that gives up connecting after
    /// `connectTimeout`.
    func connectionConfiguration(connectTimeout: TimeAmount? = nil) throws -> PostgresConnection.Configuration {
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
        if let connectTimeout { configuration.options.connectTimeout = connectTimeout }
        return configuration
    }

    /// What a connection that failed on TLS or on its login means, naming what to change; nil for other failures.
    func explanation(of error: any Error) -> PassStoreError? {
        if let psql = error as? PSQLError, let state = psql.serverInfo?[.sqlState] {
            return refusal(state: state, message: psql.serverInfo?[.message] ?? "")
        }
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

    /// A login the server refused, by its SQLSTATE: the code and the server's words, and what to change.
    func refusal(state: String, message: String) -> PassStoreError {
        let said = "\(state) \(message)"
        let what =
            switch state {
            case "28P01":
                "refused the password of user \(user) (\(said)): check the password in the database URL (PASSMINT_DATABASE_URL)"
            case "28000":
                "refused user \(user) (\(said)): the server's pg_hba.conf lets no such login in from this host; add a line for it "
                    + "(or give sslmode=require if it lets in only TLS connections)"
            case "3D000": "has no database \(database) (\(said)): create it (createdb), or name another in the URL"
            case "53300": "has no connection left for this node (\(said)): raise max_connections or give the nodes fewer"
            default: "refused the connection (\(said))"
            }
        return PassStoreError(.database, "PostgreSQL at \(place) \(what)")
    }
}
