import Foundation
import Passmint
import PassmintServer
import PassmintStorePostgres
import Testing

/// Each setting's default is written once, in its declaration (``ServeSettings``): the configuration a program builds
/// field by field starts where `passmint serve` starts with nothing given (issue 41, item 5).
@Suite struct SettingDefaultsTests {
    @Test func theStructsDefaultsAreTheDeclaredOnes() async throws {
        let url = "https://passes.example.test/wallet"
        let read = try await ServerConfigurationTests.read(["--public-url", url])
        let built = ServerConfiguration(publicURL: url, identities: read.identities)
        var (fromSettings, fromStruct) = ("", "")
        dump(read, to: &fromSettings)
        dump(built, to: &fromStruct)
        let differing = zip(fromSettings.split(separator: "\n"), fromStruct.split(separator: "\n")).filter { $0 != $1 }
        #expect(differing.isEmpty, "declared default ≠ the struct's: \(differing)")
        #expect(fromSettings.split(separator: "\n").count == fromStruct.split(separator: "\n").count)
    }

    /// The database setting is read once into a ``DatabaseLocation``: only a postgres:// or postgresql:// URL is
    /// PostgreSQL; a file whose name merely starts with "postgres" is a SQLite file, with its jobs beside it.
    @Test func onlyAPostgresURLIsPostgreSQL() async throws {
        let url = "https://passes.example.test/wallet"
        let file = try await ServerConfigurationTests.read(["--public-url", url, "--database-url", "postgres-data.sqlite"])
        guard case .sqlite(let path) = file.database else { throw Refusal("\(file.database.name) is not SQLite") }
        #expect(path == "postgres-data.sqlite" && file.jobsFolder == "postgres-data.sqlite.jobs")
        let server = try await ServerConfigurationTests.read(
            ["--public-url", url], ["PASSMINT_DATABASE_URL": "postgresql://u:secret@db:6543/p?sslmode=disable"])
        guard case .postgres(let postgres) = server.database else { throw Refusal("\(server.database.name) is not PostgreSQL") }
        #expect(postgres.port == 6543 && postgres.database == "p" && server.database.hasPassword)
        #expect(server.jobsFolder == "passmint-jobs" && server.database.name == "postgres db:6543 sslmode=disable")
        #expect(try !DatabaseLocation("postgres://u@db/p").hasPassword)
        await #expect {
            _ = try await ServerConfigurationTests.read(["--public-url", url, "--database-url", ":memory:"])
        } throws: { error in
            let message = (error as? ConfigurationError)?.message ?? ""
            return message.hasPrefix("setting database-url, from --database-url: \":memory:\"")
                && message.contains("give a SQLite file path or a postgres://")
        }
    }

    struct Refusal: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
