import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Passmint
import PassmintServer

/// `passmint stats`: a service's install and removal statistics (`GET /api/v1/stats`) as a table.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a service's install and removal statistics as a table.",
        discussion: """
            Asks GET /api/v1/stats of the service at --service (or "service" in passmint.json) with the API key from $PASSMINT_API_KEY (or the variable \
            --api-key-env names) and prints a row per day (or hour): passes issued, add-pages viewed, downloads, \
            installs (first device), removals (last device), passes on a device at the end of the row and devices per \
            such pass, updates, fetches of a new version (and those within 1 h / 24 h of the change), failed pushes, \
            dead push tokens, \
            and Google Wallet saves and deletions (G saved, G removed). \
            --csv prints the service's CSV instead. See docs/insights.md.
            """)

    @Option(
        name: [.customLong("service"), .customLong("url")],
        help: ArgumentHelp(
            "The service's base URL, e.g. https://passes.example.com, as update takes it (default: \"service\" in passmint.json; --url is the older name).",
            valueName: "url"))
    var service: String?

    @Option(
        help: ArgumentHelp("Project file (default: passmint.json in the current folder, when there is one).", valueName: "passmint.json"))
    var project: String?

    @Option(help: "Only passes issued from this template.")
    var template: String?

    @Option(name: .customLong("pass-type"), help: "Only passes of this pass type identifier.")
    var passType: String?

    @Option(
        help: ArgumentHelp("How far back: a number followed by d (days) or h (hours) (default: 30d).", valueName: "duration"),
        transform: { try OptionValue.duration($0, option: "--since", minimum: .seconds(3600), example: Self.sinceExample) })
    var since: Duration?
    static let sinceExample = "a number followed by d or h (e.g. 30d)"

    @Option(help: "A row per day or per hour.")
    var interval = "day"

    @Flag(help: "Print CSV (the service's own) instead of the table.")
    var csv = false

    @Option(help: ArgumentHelp("The environment variable holding the API key.", valueName: "name"))
    var apiKeyEnv = "PASSMINT_API_KEY"

    func validate() throws {
        guard ["day", "hour"].contains(interval) else { throw ValidationError("--interval \(interval): give day or hour") }
    }

    func run() async throws {
        guard let url = try service ?? ProjectFile.load(project)?.service else {
            throw ValidationError("give the service's URL: --service https://passes.example.com (or \"service\" in passmint.json)")
        }
        guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil else {
            throw ValidationError("--service \(url) is not an http(s) URL: give the service's base URL, e.g. https://passes.example.com")
        }
        guard let key = ProcessInfo.processInfo.environment[apiKeyEnv], !key.isEmpty else {
            throw ValidationError("set \(apiKeyEnv) to the service's API key")
        }
        let seconds = Double((since ?? .seconds(30 * 86_400)).components.seconds)
        let from = Date().addingTimeInterval(-seconds).formatted(Date.ISO8601FormatStyle())
        var components = URLComponents()
        components.queryItems =
            [URLQueryItem(name: "from", value: from), URLQueryItem(name: "interval", value: interval)]
            + [template.map { URLQueryItem(name: "template", value: $0) }, passType.map { URLQueryItem(name: "passType", value: $0) }]
            .compactMap { $0 }
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        var request = HTTPClientRequest(url: base + "/api/v1/stats?" + (components.percentEncodedQuery ?? ""))
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        if csv { request.headers.add(name: "Accept", value: "text/csv") }
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: .minutes(2))
        } catch {
            throw ValidationError(UpdateClient.unreachable(base, error))
        }
        let body = Array(try await response.body.collect(upTo: 64 << 20).readableBytesView)
        guard response.status == .ok else {
            let message =
                (try? JSONParser.value(body))?["error"]?["message"]?.stringValue ?? String(decoding: body.prefix(500), as: UTF8.self)
            throw ValidationError("GET \(request.url) answered \(response.status.code): \(message)")
        }
        if csv {
            print(String(decoding: body, as: UTF8.self), terminator: "")
        } else {
            print(StatsTable.render(try JSONParser.value(body)), terminator: "")
        }
    }
}

/// The statistics' JSON as a table for the terminal.
enum StatsTable {
    static let columns: [(key: String, title: String)] = [
        ("issued", "issued"), ("linkViews", "viewed"), ("downloads", "downloaded"), ("installs", "installed"),
        ("removals", "removed"), ("activePasses", "active"), ("devicesPerPass", "devices/pass"), ("updates", "updates"),
        ("fetched", "fetched"),
        ("fetchedWithin1h", "≤1h"), ("fetchedWithin24h", "≤24h"), ("pushFailures", "push failed"), ("deadTokens", "dead tokens"),
        ("googleSaves", "G saved"), ("googleRemovals", "G removed"),
    ]

    static func render(_ json: JSONValue) -> String {
        let hourly = json["interval"]?.stringValue == "hour"
        var lines: [[String]] = [[hourly ? "hour (UTC)" : "day (UTC)"] + columns.map(\.title)]
        for row in json["intervals"]?.arrayValue ?? [] {
            let start = row["start"]?.stringValue ?? ""
            let label = hourly ? String(start.prefix(16)).replacingOccurrences(of: "T", with: " ") : String(start.prefix(10))
            lines.append([label] + columns.map { row[$0.key]?.numberValue?.text ?? "0" })
        }
        let widths = (0..<(columns.count + 1)).map { index in lines.map { $0[index].count }.max() ?? 0 }
        var text = ""
        for line in lines {
            let cells = line.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }
            text += cells.joined(separator: "  ") + "\n"
        }
        let devices = json["devices"]?.numberValue?.text ?? "0"
        let passes = json["passesOnDevices"]?.numberValue?.text ?? "0"
        let perPass = json["devicesPerPass"]?.numberValue?.text ?? "0"
        text += "\nnow: \(passes) passes on \(devices) devices (\(perPass) devices per pass)\n"
        return text
    }
}
