import BenchSupport
import Foundation
import NIOHTTP1
import NIOPosix

/// The `passmint serve` process the bench measures, its output in a log file. It binds port 0; the port the system
/// gave it is read from the line `serve` prints once listening.
final class BenchService: @unchecked Sendable {
    let process = Process()
    let log: URL
    let apiKey: String
    let group: MultiThreadedEventLoopGroup
    /// Set once by ``waitUntilHealthy()``, before the service is shared.
    private(set) var port = 0
    private(set) var http: BenchHTTP
    var output: String { (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(4000)) } ?? "" }

    init(
        binary: String, arguments: [String], environment: [String: String], apiKey: String, folder: URL, group: MultiThreadedEventLoopGroup
    )
        throws
    {
        self.apiKey = apiKey
        self.group = group
        http = BenchHTTP(host: "127.0.0.1", port: 0, group: group)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging([
            "PASSMINT_API_KEY": apiKey, "LOG_LEVEL": "notice",
        ]) { $1 }
        log = folder.appendingPathComponent("serve-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
    }

    func waitUntilHealthy() async -> Bool {
        guard let port = await listeningPort() else { return false }
        self.port = port
        http = BenchHTTP(host: "127.0.0.1", port: port, group: group)
        for _ in 0..<1200 {
            if let answer = try? await http.one(BenchRequest(method: .GET, path: "/health")), answer.text == "ok\n" { return true }
            if !process.isRunning { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// The port of the `listening on http://127.0.0.1:PORT` line, once the log has it; nil when the process ends first.
    private func listeningPort() async -> Int? {
        for _ in 0..<1200 {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return port
            }
            if !process.isRunning { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// An API request with the API key.
    func api(_ method: HTTPMethod, _ path: String, body: [UInt8] = []) -> BenchRequest {
        BenchRequest(
            method: method, path: path, headers: [("authorization", "Bearer \(apiKey)"), ("accept", "application/json")], body: body)
    }

    /// The figures of `GET /metrics`, by series and labels (`name{labels}`).
    func metrics() async throws -> [String: Double] {
        let answer = try await http.one(api(.GET, "/metrics"))
        guard answer.status == 200 else { throw BenchError("/metrics answered \(answer.status): \(answer.text)") }
        var figures: [String: Double] = [:]
        for line in answer.text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            figures[String(line[..<space])] = value
        }
        return figures
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
