import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import Passmint
import PassmintBatch

struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change many passes of a running service at once, or publish a new version of a template.",
        discussion: """
            --data changes.csv|changes.jsonl: one change per row, uploaded as it is read to POST /api/v1/updates and \
            applied by the service as a job, with the same merge and no-change rules as PATCH; the devices of every \
            changed pass are pushed. JSON Lines rows are {"passTypeIdentifier", "serialNumber", "data": {…}, \
            "voided": true}; CSV rows have the columns serialNumber, passTypeIdentifier (or --pass-type), voided \
            (true/false, optional), and every other column is a data value (text).

            --publish <template>: the service loads the template's folder again and gives every pass issued from it \
            a new version (a new look, texts, images), pushing their devices; --set key=value sets a data value on \
            every one of them.

            The API key comes from $PASSMINT_API_KEY (or the variable --api-key-env names), never the command line. \
            Progress shows while the job runs; failed rows are written to --report (CSV: row, line, serialNumber, \
            reason); exit status 1 when any row failed.
            """
    )

    @Option(help: ArgumentHelp("The service's base URL, e.g. https://passes.example.com.", valueName: "url"))
    var service: String

    @Option(help: ArgumentHelp("Changes: a .csv or .jsonl file.", valueName: "file"))
    var data: String?

    @Option(help: ArgumentHelp("Publish a new version of this template instead.", valueName: "template"))
    var publish: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("With --publish: a data value for every pass.", valueName: "key=value"))
    var values: [String] = []

    @Option(help: ArgumentHelp("The pass type of CSV rows without a passTypeIdentifier column.", valueName: "id"))
    var passType: String?

    @Option(help: ArgumentHelp("Where failed rows are written (default: <data>.failures.csv).", valueName: "file"))
    var report: String?

    @Option(help: ArgumentHelp("Environment variable holding the API key.", valueName: "VAR"))
    var apiKeyEnv = "PASSMINT_API_KEY"

    @Flag(help: "Print the finished job as JSON on stdout.")
    var json = false

    func validate() throws {
        guard (data == nil) != (publish == nil) else {
            throw ValidationError("give --data changes.csv|changes.jsonl, or --publish <template>")
        }
        guard values.isEmpty || publish != nil else { throw ValidationError("--set goes with --publish (rows carry their own values)") }
        guard let url = URL(string: service), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--service \(service) is not an http(s) URL, e.g. https://passes.example.com")
        }
    }

    func run() async throws {
        guard let key = ProcessInfo.processInfo.environment[apiKeyEnv], !key.isEmpty else {
            throw ValidationError("set \(apiKeyEnv) to the service's API key")
        }
        let client = UpdateClient(base: service.hasSuffix("/") ? String(service.dropLast()) : service, apiKey: key)
        let progress = ProgressLine(enabled: !json && isatty(2) == 1)
        var localFailures: [UpdateUpload.Failure] = []
        var lines: [Int] = []
        let job: JSONValue
        if let publish {
            let defaults = try values.reduce(into: JSONObject()) { object, pair in
                guard let equals = pair.firstIndex(of: "=") else { throw ValidationError("--set \(pair): give key=value") }
                object[String(pair[..<equals])] = .string(String(pair[pair.index(after: equals)...]))
            }
            job = try await client.publish(template: publish, data: values.isEmpty ? nil : defaults)
        } else if let data {
            let upload = try UpdateUpload(path: data, passType: passType)
            printError("uploading \(data) (\(upload.input.formatDescription))")
            job = try await client.upload(upload)
            localFailures = upload.failures
            lines = upload.lines
        } else {
            return
        }
        guard let id = job["id"]?.stringValue else { throw ValidationError("the service answered no job: \(job)") }
        let finished = try await client.wait(for: id) { progress.show($0) }
        progress.clear()
        let failures = try await client.failures(of: id)
        let failed = localFailures.count + failures.count
        if failed > 0 || data != nil {
            let path = report ?? (data.map { $0 + ".failures.csv" } ?? "update-failures.csv")
            try UpdateReport.write(to: path, local: localFailures, remote: failures, lines: lines)
            if failed > 0 { printError("\(failed) rows failed: see \(path)") }
        }
        if json {
            print(JSONWriter.string(finished))
        } else {
            printError(
                "job \(id) \(finished["state"]?.stringValue ?? "?"): \(finished["changed"] ?? 0) changed, \(finished["unchanged"] ?? 0) unchanged, \(failed) failed, \(finished["pushesQueued"] ?? 0) pushes queued"
            )
        }
        if finished["state"]?.stringValue != "finished" { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }
}

/// One line on a terminal's stderr, rewritten in place.
struct ProgressLine {
    let enabled: Bool

    func show(_ job: JSONValue) {
        guard enabled else { return }
        printError(
            "\r\u{1B}[2K\(job["done"] ?? 0) rows · \(job["changed"] ?? 0) changed · \(job["unchanged"] ?? 0) unchanged · \(job["failed"] ?? 0) failed · \(job["pushQueue"]?["owed"] ?? 0) pushes owed",
            terminator: "")
    }

    func clear() { if enabled { printError("\r\u{1B}[2K", terminator: "") } }
}
