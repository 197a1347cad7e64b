import ArgumentParser
import Foundation
import Passmint
import PassmintBatch

struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change many passes of a running service at once, or publish a new version of a template.",
        discussion: """
            passmint update changes.csv (or --data changes.csv|changes.jsonl): one change per row, applied by the \
            service as a job (POST /api/v1/updates) with the same merge and no-change rules as PATCH; the devices of \
            every changed pass are pushed. CSV rows have a serial number column, optionally passTypeIdentifier and \
            voided (yes/no), and every other column is a data value; --map names columns whose header is not the \
            placeholder's name, and with --template (or "template" in passmint.json) values are converted as the \
            template needs them (--locale de-DE reads 1.234,5 and 17.05.2023). JSON Lines rows are \
            {"passTypeIdentifier", "serialNumber", "data": {…}, "voided": true}. The pass type of rows without one: \
            --pass-type, else the template's, else the service's when it has one. The whole file is checked before \
            anything is sent: a file in another encoding is refused, and rows that fail here are not sent.

            Orders: a CSV with an orderIdentifier column (and no serial number column) changes Wallet orders, each \
            row as PATCH /api/v1/orders merges it: every other column is a value of the order's data (an empty cell \
            changes nothing), the order type comes from an orderTypeIdentifier column, --order-type or the service's \
            only one; a status an order cannot go back to is refused for that row. JSON Lines rows are \
            {"orderTypeIdentifier", "orderIdentifier", "data": {…}}.

            --publish <template>: the service loads the template's folder again and gives every pass issued from it \
            a new version (a new look, texts, images), pushing their devices; --set key=value sets a data value on \
            every one of them; --purge-unused drops from their stored data the keys the template does not use (columns \
            an earlier batch --keep-columns, or a batch before it left them out, stored).

            The service URL comes from --service or "service" in passmint.json; the API key from $PASSMINT_API_KEY \
            (or the variable --api-key-env names), never the command line. Progress shows while the job runs; the \
            end prints the failures grouped by reason, and failed rows are written to --report (CSV: row, line, \
            serialNumber, reason); exit status 1 when any row failed.
            """
    )

    @Argument(help: ArgumentHelp("Changes: a .csv or .jsonl file (as --data).", valueName: "changes.csv"))
    var file: String?

    @Option(
        help: ArgumentHelp(
            "The service's base URL, e.g. https://passes.example.com (default: \"service\" in passmint.json).", valueName: "url"))
    var service: String?

    @Option(help: ArgumentHelp("Changes: a .csv or .jsonl file.", valueName: "file"))
    var data: String?

    @Option(help: ArgumentHelp("Publish a new version of this template instead.", valueName: "template"))
    var publish: String?

    @Flag(
        name: .customLong("purge-unused"),
        help: "With --publish: drop from every pass's stored data the keys the template does not use (columns earlier batch runs stored).")
    var purgeUnused = false

    @Option(help: ArgumentHelp("The pass type of CSV rows without a passTypeIdentifier column.", valueName: "id"))
    var passType: String?

    @Option(
        help: ArgumentHelp(
            "The order type of CSV rows naming orders (an orderIdentifier column) without an orderTypeIdentifier column.",
            valueName: "id"))
    var orderType: String?

    @Option(help: ArgumentHelp("The template folder, to convert values as it needs them and to name its pass type.", valueName: "folder"))
    var template: String?

    @Option(
        help: ArgumentHelp("Project file (default: passmint.json in the current folder, when there is one).", valueName: "passmint.json"))
    var project: String?

    @OptionGroup(title: "Spreadsheet columns and values") var spreadsheet: SpreadsheetOptions

    @Option(help: ArgumentHelp("Where failed rows are written (default: <data>.failures.csv).", valueName: "file"))
    var report: String?

    @Option(help: ArgumentHelp("Environment variable holding the API key.", valueName: "VAR"))
    var apiKeyEnv = "PASSMINT_API_KEY"

    @Flag(help: "Print the finished job as JSON on stdout.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Follow a job the service runs already (its id, as an earlier update printed it) instead of sending changes.",
            valueName: "job-id"))
    var follow: String?

    func validate() throws {
        guard data == nil || file == nil else { throw ValidationError("give the changes file once: changes.csv or --data changes.csv") }
        guard [(data ?? file) != nil, publish != nil, follow != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give a changes file (passmint update changes.csv), --publish <template>, or --follow <job-id>")
        }
        guard !purgeUnused || publish != nil else {
            throw ValidationError(
                "--purge-unused goes with --publish <template>: it drops from that template's passes the data it does not use")
        }
    }

    func run() async throws {
        let project = try ProjectFile.load(project)
        guard let service = service ?? project?.service else {
            throw ValidationError("give the service's URL: --service https://passes.example.com (or \"service\" in passmint.json)")
        }
        guard let url = URL(string: service), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--service \(service) is not an http(s) URL, e.g. https://passes.example.com")
        }
        guard let key = ProcessInfo.processInfo.environment[apiKeyEnv], !key.isEmpty else {
            throw ValidationError("set \(apiKeyEnv) to the service's API key")
        }
        let client = UpdateClient(base: service.hasSuffix("/") ? String(service.dropLast()) : service, apiKey: key)
        let progress = ProgressLine(enabled: !json && isatty(2) == 1)
        var upload: UpdateUpload?
        let job: JSONValue
        if let publish {
            var defaults = JSONObject()
            for value in try spreadsheet.values() {
                guard value.columns.isEmpty else {
                    throw ValidationError("--set \(value.placeholder) with --publish is a value for every pass: it cannot name columns")
                }
                defaults[value.placeholder] = value.value
            }
            job = try await client.publish(
                template: publish, data: spreadsheet.set.isEmpty ? nil : defaults, purgeUnused: purgeUnused)
        } else if let path = data ?? file {
            let checked = try await prepareUpload(path: path, project: project, client: client)
            upload = checked
            job = try await client.upload(checked)
        } else if let follow {
            job = ["id": .string(follow)]
        } else {
            return
        }
        guard let id = job["id"]?.stringValue else { throw ValidationError("the service answered no job: \(job)") }
        let again = "passmint update --follow \(id) --service \(service)"
        if follow == nil && !json {
            printError("job \(id) accepted: the service runs it; if this command stops, follow it again with \(again)")
        }
        let finished: JSONValue
        do {
            finished = try await client.wait(for: id) { progress.show($0) }
        } catch let refused as UpdateClient.Refused where refused.unreachable {
            progress.clear()
            throw ValidationError(
                """
                lost the service while following job \(id) (\(refused)). The job lives on at the service: another node                 takes it over (PostgreSQL), or its node goes on with it when it starts again (SQLite). Follow it with \(again)
                """)
        }
        progress.clear()
        let remote = try await client.failures(of: id)
        try finish(finished, id: id, upload: upload, remote: remote)
    }
}

/// One line on a terminal's stderr, rewritten in place.
struct ProgressLine {
    let enabled: Bool

    func show(_ job: JSONValue) {
        guard enabled else { return }
        printError(
            "\r\u{1B}[2K\(job.count("done")) rows · \(job.count("changed")) changed · \(job.count("unchanged")) unchanged · \(job.count("failed")) failed · \(job["pushQueue"]?.count("owed") ?? 0) pushes owed",
            terminator: "")
    }

    func clear() { if enabled { printError("\r\u{1B}[2K", terminator: "") } }
}

extension JSONValue {
    /// A count in a job's JSON as a plain number (0 when absent).
    func count(_ key: String) -> Int { self[key]?.numberValue?.intValue ?? 0 }
}
