import Foundation
import Logging
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import PostgresNIO
import Testing

/// TLS to PostgreSQL as a managed service asks for it: the URL's `sslmode` and `sslrootcert`, as libpq reads them.
/// The test server (scripts/postgres-test-server.sh) has TLS on, and the suite's URL asks for `verify-full`.
@Suite struct PostgresTLSTests {
    /// `url` with its query option `name` set to `value` (removed when nil).
    static func setting(_ name: String, to value: String?, in url: String) throws -> String {
        var components = try #require(URLComponents(string: url))
        var items = (components.queryItems ?? []).filter { $0.name != name }
        if let value { items.append(URLQueryItem(name: name, value: value)) }
        components.queryItems = items
        return try #require(components.string)
    }

    /// A new database on the test server; psql is waited for on a thread of its own, off the cooperative pool.
    static func freshURL() async throws -> String {
        try await offPool { Result { try TestEnvironment.freshPostgresURL() } }.get()
    }

    /// Opens the store of `url` as the service does, and asks the server whether this connection is encrypted.
    static func encrypted(_ url: String) async throws -> Bool {
        try await openPassStore(url: url, logger: Logger(label: "test.tls")).whileRunning { store in
            let client = try #require(store as? PostgresPassStore).client
            let rows = try await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            for try await ssl in rows.decode(Bool.self) { return ssl }
            return false
        }
    }

    @Test func anUnknownSSLModeIsRefusedNamingIt() throws {
        do {
            _ = try openPassStore(url: "postgres://passmint@127.0.0.1:1/passmint?sslmode=verify_full")
            Issue.record("expected an error")
        } catch let error as PassStoreError {
            #expect(error.message.contains("sslmode=verify_full"), "\(error.message)")
            #expect(error.message.contains("verify-full"), "says which modes there are: \(error.message)")
        }
    }

    @Test func aMissingRootCertificateIsRefusedNamingTheOption() throws {
        do {
            _ = try openPassStore(url: "postgres://passmint@127.0.0.1:1/passmint?sslmode=verify-full&sslrootcert=/no/such/ca.pem")
            Issue.record("expected an error")
        } catch let error as PassStoreError {
            #expect(error.message.contains("sslrootcert=/no/such/ca.pem does not exist"), "\(error.message)")
        }
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests), arguments: ["verify-full", "verify-ca", "require"])
    func theConnectionIsEncryptedAndVerifiedAsAsked(_ mode: String) async throws {
        var url = try Self.setting("sslmode", to: mode, in: try await Self.freshURL())
        if mode == "require" { url = try Self.setting("sslrootcert", to: nil, in: url) }  // encrypts without checking
        #expect(try await Self.encrypted(url))
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func aWrongRootCertificateIsRefusedNamingTheOption() async throws {
        // Apple's root did not sign the test server's certificate.
        let wrong = TestEnvironment.repositoryRoot.appendingPathComponent("Certificates/apple/AppleRootCA.pem").path
        let url = try Self.setting("sslrootcert", to: wrong, in: try await Self.freshURL())
        do {
            _ = try await Self.encrypted(url)
            Issue.record("expected the server's certificate to be refused")
        } catch let error as PassStoreError {
            #expect(error.message.contains("does not verify against sslrootcert=\(wrong)"), "\(error.message)")
        }
    }

    /// A refused login is named by the server's code, not reported as a server out of reach after the whole connect
    /// timeout (issue 39): a wrong password (the test server's `passmint_password` role logs in with one), and a
    /// database that does not exist.
    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func aRefusedLoginIsNamedByTheServersCode() async throws {
        let base = try TestEnvironment.postgresURL()
        var wrongPassword = try #require(URLComponents(string: base))
        wrongPassword.user = "passmint_password"
        wrongPassword.password = "wrong-password"
        var noDatabase = try #require(URLComponents(string: base))
        noDatabase.path = "/passmint_no_such_database"
        for (url, expected) in [
            (try #require(wrongPassword.string), "refused the password of user passmint_password (28P01"),
            (try #require(noDatabase.string), "has no database passmint_no_such_database (3D000"),
        ] {
            do {
                _ = try await Self.encrypted(Self.setting("connect_timeout", to: "60", in: url))
                Issue.record("expected the login to be refused")
            } catch let error as PassStoreError {
                #expect(error.message.contains(expected), "\(error.message)")
                #expect(!error.message.contains("wrong-password"), "the password is never shown")
            }
        }
    }
}
