import ArgumentParser
import Foundation
import PassmintBatch
import Testing

@testable import PassmintCLI

/// The commands' options, parsed in-process (issue 41, item 7): each typed value is read once as the command line is
/// parsed, and refused there naming the option, the value and what it takes; `validate()` reads no file or variable.
@Suite struct CommandParsingTests {
    /// The message `passmint` prints for a command line `parse` refuses.
    func refusal<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) -> String {
        do {
            _ = try Command.parse(arguments)
            return "accepted"
        } catch {
            return Command.message(for: error)
        }
    }

    let batch = ["PassTemplates/Loyalty.pass", "--data", "members.csv", "--out-dir", "out"]

    @Test func batchOptionsAreTypedAsTheyAreParsed() throws {
        let parsed = try BatchCommand.parse(
            batch + [
                "--encoding", "windows-1252", "--delimiter", "semicolon", "--shard", "1/4", "--report", "jsonl", "--link-lifetime", "30d",
            ])
        #expect(
            parsed.spreadsheet.encoding == .windows1252 && parsed.spreadsheet.delimiter == UInt8(ascii: ";")
                && parsed.shard == BatchShard("1/4"))
        #expect(parsed.report == .jsonl && parsed.linkLifetime == .seconds(30 * 86_400))
        let defaults = try BatchCommand.parse(batch)
        #expect(
            defaults.report == .csv && defaults.spreadsheet.encoding == nil && defaults.spreadsheet.delimiter == nil
                && defaults.linkLifetime == nil)
    }

    @Test func batchRefusesAValueNamingTheOptionAndWhatItTakes() {
        #expect(refusal(BatchCommand.self, batch + ["--shard", "2/2"]).contains("--shard 2/2 is not a shard: give i/n with 0 ≤ i < n"))
        #expect(refusal(BatchCommand.self, batch + ["--encoding", "latin-9"]).contains("--encoding latin-9 is not an encoding"))
        #expect(refusal(BatchCommand.self, batch + ["--delimiter", "colon"]).contains("give comma, semicolon, tab or pipe"))
        #expect(refusal(BatchCommand.self, batch + ["--report", "xml"]).contains("--report must be csv or jsonl"))
        #expect(refusal(BatchCommand.self, batch + ["--link-lifetime", "soon"]).contains("--link-lifetime soon is not a duration"))
        #expect(refusal(BatchCommand.self, batch + ["--out", "-", "--json"]).contains("leave out --json"))
        #expect(refusal(BatchCommand.self, batch + ["--no-files"]).contains("give --register <database-url> or --register-env VAR"))
        #expect(refusal(BatchCommand.self, batch + ["--register", "a.sqlite", "--register-env", "DB"]).contains("not both"))
    }

    /// What needs the project file or the environment is checked when the command runs, not while it is parsed.
    @Test func validateReadsNoFileNorVariable() throws {
        _ = try BatchCommand.parse(["members.csv", "--project", "/nonexistent/passmint.json"])
        _ = try BatchCommand.parse(batch + ["--register-env", "PASSMINT_TEST_NO_SUCH_VARIABLE"])
    }

    @Test func statsAndUpdateOptionsAreTyped() throws {
        #expect(try StatsCommand.parse(["--since", "12h"]).since == .seconds(12 * 3600))
        #expect(refusal(StatsCommand.self, ["--since", "soon"]).contains("--since soon is not a duration"))
        #expect(refusal(StatsCommand.self, ["--since", "30m"]).contains("--since 30m is not a duration"), "less than an hour")
        let update = try UpdateCommand.parse(["changes.csv", "--delimiter", "tab", "--encoding", "utf-16le"])
        #expect(update.spreadsheet.delimiter == UInt8(ascii: "\t") && update.spreadsheet.encoding == .utf16LE)
        #expect(refusal(UpdateCommand.self, ["changes.csv", "--encoding", "latin-9"]).contains("is not an encoding Passmint reads"))
    }

    /// The Google account is one option group, named as serve's settings: `batch` and `google link` take the same
    /// flags (`google link` also the shorter ones it always took).
    @Test func theGoogleAccountIsOneGroup() throws {
        let link = try GoogleLinkCommand.parse([
            "Generic.pass", "--data", "Generic.json", "--service-account", "key.json", "--issuer-id", "3388000000022222222",
            "--image-base-url", "https://passes.example.com/images", "--store-card-as", "loyalty",
        ])
        let account = ["--google-service-account", "key.json", "--google-issuer-id", "3388000000022222222"]
        let batch = try BatchCommand.parse(self.batch + ["--google", "--google-insert"] + account)
        #expect(link.google.account.serviceAccount == "key.json" && batch.google.account.serviceAccount == "key.json")
        #expect(link.google.account.issuerID == batch.google.account.issuerID)
        #expect(link.google.imageBaseURL?.host == "passes.example.com" && link.google.storeCardIsGiftCard == false)
        let sameFlags = try GoogleLinkCommand.parse(["Generic.pass", "--google-api-url", "http://127.0.0.1:9/wallet"])
        #expect(sameFlags.google.account.apiURL?.port == 9)
        let badURL = refusal(GoogleLinkCommand.self, ["Generic.pass", "--api-url", "ftp://x"])
        #expect(badURL.contains("--google-api-url ftp://x is not an http(s) URL"), "\(badURL)")
        #expect(refusal(GoogleLinkCommand.self, ["Generic.pass", "--store-card-as", "coupon"]).contains("expected loyalty or giftCard"))
    }

    /// The public URL is one option group, named as serve's setting: `batch --public-url` is serve's flag, and without
    /// it serve's variable; a value that is not a URL is refused naming the flag.
    @Test func thePublicURLIsOneGroupNamedAsServesSetting() throws {
        let parsed = try BatchCommand.parse(batch + ["--public-url", "https://passes.example.com/wallet/"])
        #expect(parsed.publicURL.url == "https://passes.example.com/wallet/")
        #expect(try parsed.publicURL.resolved([:]) == "https://passes.example.com/wallet", "without its final slash")
        let fromVariable = try BatchCommand.parse(batch).publicURL
        #expect(try fromVariable.resolved(["PASSMINT_PUBLIC_URL": "https://env.example.com/w"]) == "https://env.example.com/w")
        #expect(try fromVariable.resolved([:]) == nil)
        #expect(throws: ValidationError.self) { try BatchCommand.parse(batch + ["--public-url", "passes"]).publicURL.resolved([:]) }
    }
}
