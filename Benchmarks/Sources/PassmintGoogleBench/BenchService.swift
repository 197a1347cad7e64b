import Foundation
import NIOHTTP1
import NIOPosix

/// The `passmint serve` process the bench measures, its output in a log file.
final class BenchService: @unchecked Sendable {
    let process = Process()
    let port: Int
    let log: URL
    let apiKey: String
    let http: BenchHTTP
    var output: String { (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(4000)) } ?? "" }

    init(
        binary: String, arguments: [String], environment: [String: String], apiKey: String, folder: URL, group: MultiThreadedEventLoopGroup
    )
        throws
    {
        port = Int.random(in: 20_000..<32_000)
        self.apiKey = apiKey
        http = BenchHTTP(host: "127.0.0.1", port: port, group: group)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["--port", String(port)]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging([
            "PASSMINT_API_KEY": apiKey, "LOG_LEVEL": "notice",
        ]) { $1 }
        log = folder.appendingPathComponent("serve-\(port).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
    }

    func waitUntilHealthy() async -> Bool {
        for _ in 0..<1200 {
            if let answer = try? await http.one(BenchRequest(method: .GET, path: "/health")), answer.text == "ok\n" { return true }
            if !process.isRunning { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
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
