import BenchSupport
import Foundation
import NIOPosix

/// The Google Wallet benchmark (`scripts/bench-google.sh`): in one run, against the bench's own Google stand-in on
/// loopback (``GoogleWalletStandIn``, the tests' own, multi-threaded),
///
/// 1. the stand-in's ceiling: object updates (a GET and a PATCH, as the service's client makes them) per second from a
///    bare HTTP/1.1 client at the concurrency the service's client uses (8 connections per host);
/// 2. a release `passmint serve` (SQLite) with a Google account made at run time issues `--passes` passes, each with
///    its Google object; one bulk update touches every pass, and the Google objects updated per second are measured
///    from the upload until the Google outbox is empty (`/metrics`), every object patched exactly once.
@main struct GoogleBench {
    static func main() async throws {
        let options = try GoogleBenchOptions(CommandLine.arguments.dropFirst())
        let run = try await GoogleBenchRun(options: options)
        let result: GoogleBenchResult
        do {
            try await run.issue()
            let ceiling = try await run.ceiling()
            result = try await run.update(ceiling: ceiling)
        } catch {
            run.stop()
            throw error
        }
        run.stop()
        result.print(options: options, issueRate: run.issueRate)
        if !result.complete { exit(1) }
    }
}

struct GoogleBenchOptions {
    var binary = ".build/release/passmint"
    var passes = 5_000
    /// Connections of the bare client (the service's HTTP client opens up to 8 per host).
    var connections = 8
    /// Event loops of the stand-in.
    var standInThreads = 4

    init(_ arguments: ArraySlice<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { throw BenchError("\(argument) needs a value") }
            switch argument {
            case "--binary": binary = value
            case "--passes": passes = try Self.number(value, argument)
            case "--connections": connections = try Self.number(value, argument)
            case "--stand-in-threads": standInThreads = try Self.number(value, argument)
            default: throw BenchError("unknown option \(argument) (--binary, --passes, --connections, --stand-in-threads)")
            }
        }
    }

    private static func number(_ value: String, _ option: String) throws -> Int {
        guard let number = Int(value), number > 0 else { throw BenchError("\(option) \(value): give a whole number above 0") }
        return number
    }
}
