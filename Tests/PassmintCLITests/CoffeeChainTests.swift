import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// The marketing desk of a coffee chain, end to end: a member list as Excel exports it in Germany (semicolons,
/// Windows-1252, German headers and dates, a bad number, an empty name) issued with `batch` and a column mapping, a
/// project file so the next runs need no options, changed rows issued again with `--resume`, then new points for 50
/// members sent with `passmint update` to a running `passmint serve`.
@Suite(.serialized, .offPool) struct CoffeeChainTests {
    static let rows = 60

    /// The Loyalty template reduced to what the coffee chain's list holds: number, name, points, member since.
    func coffeeTemplate(in folder: URL) throws -> URL {
        let templates = folder.appendingPathComponent("templates")
        let template = templates.appendingPathComponent("Coffee.pass")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: BatchRunnerTestsPaths.loyalty), to: template)
        var json = try String(contentsOf: template.appendingPathComponent("pass.json"), encoding: .utf8)
        json = json.replacingOccurrences(of: "{{memberId}}", with: "{{serialNumber}}")
            .replacingOccurrences(of: "{{tier}}", with: "Gold").replacingOccurrences(of: "{{nfcMessage}}", with: "MLC")
            .replacingOccurrences(of: "\"{{pointsToNextReward}}\"", with: "250")
        try json.write(to: template.appendingPathComponent("pass.json"), atomically: true, encoding: .utf8)
        return templates
    }

    /// Windows-1252 bytes (the text holds Latin-1 letters only), lines ending in CR LF.
    func excel(_ lines: [String]) -> Data {
        Data(lines.joined(separator: "\r\n").appending("\r\n").unicodeScalars.map { UInt8($0.value) })
    }

    func members(points: (Int) -> String) -> Data {
        excel(
            ["Mitgliedsnummer;Name;Punkte;Seit"]
                + (1...Self.rows).map { index in
                    let name = index == 9 ? "" : "Jürgen Groß \(index)"
                    return "MLC-\(1000 + index);\(name);\(index == 7 ? "zwölf" : points(index));17.05.2023"
                })
    }

    func passJSON(_ file: URL) throws -> JSONValue {
        let entries = try ZipArchive.read(try FileIO.read(file.path, what: "pass"), source: file.lastPathComponent)
        return try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
    }

    func value(_ pass: JSONValue, _ fields: String, _ index: Int) -> JSONValue? {
        guard let array = pass["storeCard"]?[fields]?.arrayValue, index < array.count else { return nil }
        return array[index]["value"]
    }

    @Test func fromAnExcelExportToCardsAndUpdates() throws {
        let folder = TestEnvironment.temporaryFolder("coffee")
        let chain = try TestEnvironment.devChain()
        let templates = try coffeeTemplate(in: folder)
        try members { _ in "1.250" }.write(to: folder.appendingPathComponent("members.csv"))
        let batch = ["batch", "templates/Coffee.pass", "--data", "members.csv", "--out-dir", "cards", "--certificates", chain.path]

        // 1. Windows-1252 read as UTF-8: one message for the file, before any row.
        let wrongEncoding = try TestEnvironment.run(CreateCommandTests.binary, batch, in: folder)
        #expect(wrongEncoding.status != 0)
        #expect(
            wrongEncoding.stderr.contains(
                "data file members.csv cannot be read as UTF-8 (line 2 is the first that is not): a field is not valid UTF-8: if the file was saved by Excel as plain \"CSV\" on Windows, read it with --encoding windows-1252 (or save it as \"CSV UTF-8\")"
            ), "\(wrongEncoding.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("cards").path), "nothing is written")

        // 2. German headers without a mapping: every placeholder without a column, at once.
        let unmapped = try TestEnvironment.run(CreateCommandTests.binary, batch + ["--encoding", "windows-1252"], in: folder)
        #expect(unmapped.status != 0)
        #expect(
            unmapped.stderr.contains(
                "data file members.csv has no column for 4 placeholders serialNumber, points, memberName, memberSince (its columns: Mitgliedsnummer, Name, Punkte, Seit): add these columns, or say which column feeds each with --map \"Column=placeholder,…\" (or \"map\" in passmint.json), or give a value for every row with --set placeholder=value (or \"set\")."
            ), "\(unmapped.stderr)")

        // 3. With a mapping and the German locale: 59 cards, row 7 named with its column and value, the empty name warned.
        let mapped = try TestEnvironment.run(
            CreateCommandTests.binary,
            batch + [
                "--encoding", "windows-1252", "--map", "Mitgliedsnummer=serialNumber,Name=memberName,Punkte=points,Seit=memberSince",
                "--locale", "de-DE", "--time-zone", "Europe/Berlin",
            ], in: folder)
        #expect(mapped.status == 1, "\(mapped.stderr)")
        let said = mapped.stderr
        #expect(
            said.contains(
                "columns → placeholders:\n  Mitgliedsnummer → serialNumber (--map)\n  Name → memberName (--map)\n  Punkte → points (--map)\n  Seit → memberSince (--map)\n"
            ), "\(said)")
        #expect(
            said.contains(
                "warning: column Name (memberName) is empty on 1 row (row 9): those cards show it blank; give --require memberName to refuse such rows"
            ), "\(said)")
        #expect(
            said.contains(
                "warning: these cards have no web service (no webServiceURL), so once they are on a phone they can never change: to update them later (points, tier, …) issue them with --public-url <the public URL of `passmint serve`> and --register <its database>, or put \"publicURL\" and \"register\" in passmint.json"
            ), "\(said)")
        #expect(said.contains("1 of 60 rows failed:\n  1 row: Punkte is not a number (row 7)\nreport: cards/batch-report.csv"), "\(said)")
        let report = try String(contentsOf: folder.appendingPathComponent("cards/batch-report.csv"), encoding: .utf8)
        #expect(
            report.contains(
                "7,MLC-1007,failed,,,,\"row 7, column Punkte: \"\"zwölf\"\" is not a number (write numbers like 1.234,5 (--locale de-DE))\""
            ),
            "\(report)")
        let card = try passJSON(folder.appendingPathComponent("cards/MLC-1001.pkpass"))
        #expect(value(card, "primaryFields", 0) == 1250)
        #expect(value(card, "backFields", 1) == "2023-05-17T00:00:00+02:00")
        #expect(value(card, "secondaryFields", 0) == "Jürgen Groß 1")

        // 4. A project file: `passmint batch members.csv` with no options, cards that a service can update.
        var project: JSONObject = [
            "template": "templates/Coffee.pass", "certificates": .string(chain.path), "outDir": "live",
            "publicURL": "https://passes.example.test/wallet", "register": "passmint.sqlite",
            "map": ["Mitgliedsnummer": "serialNumber", "Name": "memberName", "Punkte": "points", "Seit": "memberSince"],
            "locale": "de-DE", "timeZone": "Europe/Berlin", "encoding": "windows-1252",
        ]
        try Data(JSONWriter.data(.object(project))).write(to: folder.appendingPathComponent("passmint.json"))
        let live = try TestEnvironment.run(CreateCommandTests.binary, ["batch", "members.csv"], in: folder)
        #expect(live.status == 1, "\(live.stderr)")
        #expect(live.stderr.contains("  Punkte → points (the mapping in passmint.json)\n"), "\(live.stderr)")
        #expect(!live.stderr.contains("no web service"), "\(live.stderr)")
        #expect(live.stderr.contains("1 of 60 rows failed:\n  1 row: Punkte is not a number (row 7)\nreport: "), "\(live.stderr)")

        // 5. Changed points for two members: --resume issues those two again and keeps the rest.
        try members { $0 == 3 || $0 == 4 ? "2.000" : "1.250" }.write(to: folder.appendingPathComponent("members.csv"))
        let resumed = try TestEnvironment.run(CreateCommandTests.binary, ["batch", "members.csv", "--resume"], in: folder)
        #expect(resumed.status == 1, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("2 rows changed since the last run: their cards were issued again"), "\(resumed.stderr)")
        #expect(value(try passJSON(folder.appendingPathComponent("live/MLC-1003.pkpass")), "primaryFields", 0) == 2000)

        // 6. New points for 50 members (and one bad row) sent to the running service.
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url",
                folder.appendingPathComponent("passmint.sqlite").path, "--certificates", chain.path, "--templates", templates.path,
                "--apns-url", apns.url.absoluteString, "--apns-ca", folder.appendingPathComponent("apns-server.pem").path,
            ], folder: folder)
        defer { _ = server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        project["service"] = .string("http://127.0.0.1:\(server.port)")
        try Data(JSONWriter.data(.object(project))).write(to: folder.appendingPathComponent("passmint.json"))
        let changes = ["Mitgliedsnummer;Punkte"] + (10...Self.rows).map { "MLC-\(1000 + $0);\($0 == Self.rows ? "zwölf" : "2.500")" }
        try excel(changes).write(to: folder.appendingPathComponent("points.csv"))
        let environment = ["PASSMINT_API_KEY": ServeProcess.apiKey]
        let update = try TestEnvironment.run(CreateCommandTests.binary, ["update", "points.csv"], environment: environment, in: folder)
        #expect(update.status == 1, "\(update.stderr)")
        #expect(update.stderr.contains("pass type: pass.dev.passmint.example (the only one the service signs)"), "\(update.stderr)")
        #expect(update.stderr.contains("checked 51 rows: 50 to send, 1 failed here and is not sent"), "\(update.stderr)")
        #expect(
            update.stderr.contains(
                " finished: 50 changed, 0 unchanged, 1 failed, 0 pushes queued\n1 row failed:\n  1 row: Punkte is not a number (row 51)\nfailures: points.csv.failures.csv"
            ), "\(update.stderr)")
        let failures = try String(contentsOf: folder.appendingPathComponent("points.csv.failures.csv"), encoding: .utf8)
        #expect(
            failures
                == "row,line,serialNumber,reason\n51,52,MLC-1060,\"row 51, column Punkte: \"\"zwölf\"\" is not a number (write numbers like 1.234,5 (--locale de-DE))\"\n"
        )
        let metadata = try ServeCommandTests.curl([
            server.base + "/api/v1/passes/pass.dev.passmint.example/MLC-1010", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
        ])
        #expect(try JSONParser.value(Array(metadata.stdout.utf8))["data"]?["points"] == 2500, "\(metadata.stdout)")

        // 7. No service at the URL (a port that refuses connections): the URL, and whether it runs there.
        _ = server.stop()
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }  // open until the test ends
        let port = refusing.port
        project["service"] = .string("http://127.0.0.1:\(port)")
        try Data(JSONWriter.data(.object(project))).write(to: folder.appendingPathComponent("passmint.json"))
        let stopped = try TestEnvironment.run(CreateCommandTests.binary, ["update", "points.csv"], environment: environment, in: folder)
        #expect(stopped.status != 0)
        #expect(
            stopped.stderr.contains(
                "cannot reach the service at http://127.0.0.1:\(port): the connection was refused. Is `passmint serve` running there? (check --service or \"service\" in passmint.json)"
            ), "\(stopped.stderr)")
    }
}

/// Where the repository's templates are (the library tests' paths, for the CLI tests).
enum BatchRunnerTestsPaths {
    static var loyalty: String { TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass").path }
}
