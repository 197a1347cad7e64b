import Foundation
import Passmint
import PassmintTestSupport
import Testing

/// A `passmint serve` process, with its output read as it comes (each piece rings `TestEvents`). Unless given a port,
/// it binds port 0 and the system gives it a free one, which it prints (`listening on http://127.0.0.1:PORT`): no
/// other test's server can answer in its place.
final class ServeProcess {
    static let apiKey = "serve-test-key-0123456789"
    let process = Process()
    private let askedPort: Int
    private let reader: OutputReader
    /// The port asked for, or the one `serve --port 0` printed (waits for its line).
    lazy var port: Int = askedPort != 0 ? askedPort : listeningPort()
    var base: String { "http://127.0.0.1:\(port)" }
    /// What the process wrote to standard output and error so far; all of it once the process has ended.
    var output: String { reader.text(whole: !process.isRunning) }

    init(arguments: [String], folder: URL, environment: [String: String] = [:], port: Int = 0) throws {
        self.askedPort = port
        process.executableURL = URL(fileURLWithPath: CreateCommandTests.binary)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var variables = ProcessInfo.processInfo.environment.merging(["PASSMINT_API_KEY": Self.apiKey, "LOG_LEVEL": "info"]) { $1 }
        variables.merge(environment) { $1 }
        if arguments.contains("--port") == false { variables["PASSMINT_PORT"] = String(port) }
        process.environment = variables
        reader = try OutputReader()
        process.standardOutput = reader.writing
        process.standardError = reader.writing
        try process.run()
        reader.started()
    }

    /// The port of serve's `listening on http://…:PORT` line; 0 when the process ends without it.
    private func listeningPort() -> Int {
        let prefix = "listening on http://127.0.0.1:"
        guard let line = waitForLine(prefix) else { return 0 }
        return Int(line.dropFirst(prefix.count)) ?? 0
    }

    /// Waits for the first line of the output that starts with `prefix`; nil when the process ends without one.
    func waitForLine(_ prefix: String) -> Substring? {
        func line() -> Substring? { output.split(separator: "\n").first { $0.hasPrefix(prefix) } }
        _ = TestEvents.blockingWait { line() != nil || reader.ended }
        return line()
    }

    /// Waits until the output holds `text` (a line of the log, say); whether it did before the process ended.
    func waitForOutput(_ text: String) -> Bool {
        _ = TestEvents.blockingWait { output.contains(text) || reader.ended }
        return output.contains(text)
    }

    /// Waits until serve listens (its `listening on` line), then asks `/health`: whether it answered `ok`.
    func waitUntilHealthy() -> Bool {
        guard waitForLine("listening on ") != nil, port != 0 else { return false }
        return (try? ServeCommandTests.curl(["-f", base + "/health"]))?.stdout == "ok\n"
    }

    /// Issues a Loyalty pass through the API; its token.
    func issue(serial: String) throws -> String {
        var data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path, what: "")
        ).objectValue!
        data["serialNumber"] = .string(serial)
        let issue = try ServeCommandTests.curl([
            "-X", "POST", base + "/api/v1/passes", "-H", "Authorization: Bearer \(Self.apiKey)", "-H", "Accept: application/json",
            "-d", JSONWriter.string(["template": "Loyalty", "data": .object(data)], style: .compact),
        ])
        return try #require(try JSONParser.value(Array(issue.stdout.utf8))["authenticationToken"]?.stringValue, "\(issue.stdout)")
    }

    /// Registers a device for a pass; the HTTP status.
    func register(serial: String, token: String, pushToken: String, device: String = "dev1") throws -> String {
        try ServeCommandTests.curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
            base + "/wallet/v1/devices/\(device)/registrations/pass.dev.passmint.example/\(serial)",
            "-H", "Authorization: ApplePass \(token)", "-d", #"{"pushToken":"\#(pushToken)"}"#,
        ]).stdout
    }

    /// PATCHes a pass's data; the answer's body, a newline and the HTTP status.
    func patch(serial: String, data: String) throws -> String {
        try ServeCommandTests.curl([
            "-w", "\n%{http_code}", "-X", "PATCH", base + "/api/v1/passes/pass.dev.passmint.example/\(serial)",
            "-H", "Authorization: Bearer \(Self.apiKey)", "-d", #"{"data":\#(data)}"#,
        ]).stdout
    }

    /// The `pushes` member of the pass's metadata (`GET /api/v1/passes/…`).
    func pushes(serial: String) throws -> JSONValue {
        let metadata = try ServeCommandTests.curl([
            base + "/api/v1/passes/pass.dev.passmint.example/\(serial)", "-H", "Authorization: Bearer \(Self.apiKey)",
        ])
        return try #require(try JSONParser.value(Array(metadata.stdout.utf8))["pushes"], "\(metadata.stdout)")
    }

    /// Waits until `condition` holds, checking it again at each event (`TestEvents`: this or another process wrote
    /// output, a stand-in received a request); whether it held. `seconds` only bounds a broken test.
    func waitFor(seconds: Double = TestEvents.bound, _ condition: () -> Bool) -> Bool {
        TestEvents.blockingWait(atMost: seconds, until: condition)
    }

    /// SIGTERM, then waits: the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGTERM, then its exit status once it ended; nil when it had not ended within `seconds` (it is then killed): a
    /// hang at shutdown fails the test instead of holding the suite.
    func stop(within seconds: Double) -> Int32? {
        if process.isRunning { process.terminate() }
        // The exit itself ends the wait: a thread waits for it and signals.
        let exited = DispatchSemaphore(value: 0)
        Thread { [process] in
            process.waitUntilExit()
            exited.signal()
        }.start()
        guard exited.wait(timeout: .now() + seconds) == .success else {
            kill()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
