import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// The coffee chain's own export, as it is, with the Loyalty template as it is: first and last name in two columns, the
/// member number feeding the serial number and the member id, two placeholders without a column, a birthday column
/// the card does not show; then names too long for the card and an http public URL.
@Suite(.serialized, .offPool) struct CoffeeExportTests {
    static let header = "Vorname;Nachname;Mitgliedsnummer;Punkte;Seit;Stufe;Geburtstag"

    /// A folder with the unchanged Loyalty template under templates/, the export and a project file.
    func coffeeFolder(_ rows: [String], project extra: JSONObject = [:]) throws -> (folder: URL, chain: URL) {
        let folder = TestEnvironment.temporaryFolder("coffee-export")
        let chain = try TestEnvironment.devChain()
        let templates = folder.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: BatchRunnerTestsPaths.loyalty), to: templates.appendingPathComponent("Loyalty.pass"))
        try Data(([Self.header] + rows).joined(separator: "\r\n").appending("\r\n").utf8)
            .write(to: folder.appendingPathComponent("members.csv"))
        var project: JSONObject = [
            "template": "templates/Loyalty.pass", "certificates": .string(chain.path), "outDir": "cards",
            "publicURL": "https://passes.example.test/wallet", "register": "passmint.sqlite", "locale": "de-DE",
            "timeZone": "Europe/Berlin", "serialColumn": "Mitgliedsnummer",
            "map": ["Mitgliedsnummer": "memberId", "Punkte": "points", "Seit": "memberSince", "Stufe": "tier"],
            "set": ["nfcMessage": "MLC", "pointsToNextReward": 250, "memberName": "{{Vorname}} {{Nachname}}"],
        ]
        for member in extra { project[member.key] = member.value == .null ? Optional<JSONValue>.none : member.value }  // null: left out
        try Data(JSONWriter.data(.object(project))).write(to: folder.appendingPathComponent("passmint.json"))
        return (folder, chain)
    }

    func passJSON(_ file: URL) throws -> JSONValue {
        let entries = try ZipArchive.read(try FileIO.read(file.path, what: "pass"), source: file.lastPathComponent)
        return try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
    }

    /// The element at `index` of an array value; nil when there is none.
    func at(_ value: JSONValue?, _ index: Int) -> JSONValue? {
        guard let array = value?.arrayValue, index < array.count else { return nil }
        return array[index]
    }

    func stored(_ server: ServeProcess, _ serial: String) throws -> JSONValue? {
        let answer = try ServeCommandTests.curl([
            server.base + "/api/v1/passes/pass.dev.passmint.example/\(serial)", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
        ])
        return try JSONParser.value(Array(answer.stdout.utf8))["data"]
    }

    @Test func theExportIssuesAsItIsAndOnlyWhatTheTemplateUsesIsStored() throws {
        let (folder, chain) = try coffeeFolder([
            "Jürgen;Groß;1001;1.250;17.05.2023;Gold;01.02.1990", "Zoë;Weiß;1002;80;01.01.2024;Silber;03.04.1985",
        ])
        let batch = try TestEnvironment.run(CreateCommandTests.binary, ["batch", "members.csv"], in: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stderr.contains("  Mitgliedsnummer → serialNumber (the mapping in passmint.json)\n"), "\(batch.stderr)")
        #expect(
            batch.stderr.contains("  Vorname, Nachname → memberName = \"{{Vorname}} {{Nachname}}\" (\"set\" in "), "\(batch.stderr)")
        #expect(batch.stderr.contains("  Geburtstag: not used (no placeholder of that name), not stored\n"), "\(batch.stderr)")
        let card = try passJSON(folder.appendingPathComponent("cards/1001.pkpass"))
        #expect(card["serialNumber"] == "1001" && at(card["barcodes"], 0)?["message"] == "MLC-1001", "\(card)")
        #expect(card["nfc"]?["message"] == "MLC")
        #expect(at(card["storeCard"]?["secondaryFields"], 0)?["value"] == "Jürgen Groß")
        #expect(at(card["storeCard"]?["secondaryFields"], 1)?["value"] == 250)
        #expect(at(card["storeCard"]?["backFields"], 0)?["value"] == "1001")

        // A second list kept with --keep-columns stores the birthday; a publish with --purge-unused drops it again.
        try Data(([Self.header] + ["Ada;König;2001;5;01.01.2024;Gold;05.06.1970"]).joined(separator: "\n").utf8)
            .write(to: folder.appendingPathComponent("more.csv"))
        let kept = try TestEnvironment.run(
            CreateCommandTests.binary, ["batch", "more.csv", "--keep-columns", "--out-dir", "more"], in: folder)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.contains("  Geburtstag: no placeholder of that name; kept in the data under its own name\n"), "\(kept.stderr)")

        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url",
                folder.appendingPathComponent("passmint.sqlite").path, "--certificates", chain.path, "--templates",
                folder.appendingPathComponent("templates").path, "--apns-url", apns.url.absoluteString, "--apns-ca",
                folder.appendingPathComponent("apns-server.pem").path,
            ], folder: folder)
        defer { _ = server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        let first = try #require(try stored(server, "1001"))
        #expect(first["memberName"] == "Jürgen Groß" && first["memberId"] == "1001", "\(first)")
        #expect(first["Geburtstag"] == nil, "the unused column is not stored: \(first)")
        #expect(try stored(server, "2001")?["Geburtstag"] == "05.06.1970", "--keep-columns stores it")

        let purge = try TestEnvironment.run(
            CreateCommandTests.binary,
            ["update", "--service", server.base, "--publish", "Loyalty", "--purge-unused", "--json"],
            environment: ["PASSMINT_API_KEY": ServeProcess.apiKey], in: folder)
        #expect(purge.status == 0, "\(purge.stderr)")
        let purged = try #require(try stored(server, "2001"))
        #expect(purged["Geburtstag"] == nil && purged["memberName"] == "Ada König" && purged["points"] == 5, "\(purged)")
    }

    @Test func aNameTooLongForTheCardWarnsAndOneNoCardHoldsFailsItsRow() throws {
        let (folder, _) = try coffeeFolder(
            [
                "Jürgen;Groß;1001;1.250;17.05.2023;Gold;", "\(String(repeating: "Lang", count: 15));Groß;1002;1;17.05.2023;Gold;",
                "\(String(repeating: "x", count: 3_000));Groß;1003;1;17.05.2023;Gold;",
            ], project: ["register": .null])
        let batch = try TestEnvironment.run(CreateCommandTests.binary, ["batch", "members.csv"], in: folder)
        #expect(batch.status == 1, "\(batch.stderr)")
        #expect(
            batch.stderr.contains(
                "warning: column Vorname + Nachname (memberName) is longer than 40 characters on 1 row (row 2): Wallet cuts it in a secondary field on the front of the card; shorten it, or show it in a back field"
            ), "\(batch.stderr)")
        #expect(
            batch.stderr.contains("1 of 3 rows failed:\n  1 row: Vorname + Nachname is longer than 2000 characters (row 3)"),
            "\(batch.stderr)")
        let report = try String(contentsOf: folder.appendingPathComponent("cards/batch-report.csv"), encoding: .utf8)
        #expect(
            report.contains(
                "row 3, column Vorname + Nachname (memberName) holds 3005 characters, more than a card can hold (at most 2000 there): shorten it"
            ), "\(report)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cards/1002.pkpass").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("cards/1003.pkpass").path))
    }

    @Test func anHTTPPublicURLFailsOnceBeforeAnyRow() throws {
        let (folder, _) = try coffeeFolder(
            (1...20).map { "Vor;Nach;\(1000 + $0);1;17.05.2023;Gold;" }, project: ["publicURL": "http://passes.example.test/wallet"])
        let batch = try TestEnvironment.run(CreateCommandTests.binary, ["batch", "members.csv"], in: folder)
        #expect(batch.status != 0)
        #expect(
            batch.stderr.contains(
                "the public URL http://passes.example.test/wallet (--public-url or \"publicURL\" in passmint.json) uses http, and Wallet takes only https web services"
            ), "\(batch.stderr)")
        #expect(!batch.stderr.contains("row 1"), "\(batch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("cards").path), "nothing is written")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("passmint.sqlite").path), "nothing is stored")
    }
}
