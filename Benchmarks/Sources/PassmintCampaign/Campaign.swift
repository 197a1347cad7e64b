import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Passmint
import PassmintPush
import PassmintTestSupport

/// The campaign benchmark (`scripts/bench-campaign.sh`): a service (one node on SQLite, or two on PostgreSQL)
/// holding passes with registered devices, one bulk update touching every pass, pushes drained to a mock APNs server
/// over HTTP/2 + TLS with client certificates; optionally a `kill -9` of the node running the job in the middle.
/// Prints rows/s committed, pushes/s, pushes against distinct (device, pass type) pairs, time to drain and pushes
/// lost, beside what the APNs client and the mock manage on their own in the same run.
@main struct Campaign {
    static func main() async throws {
        let options = try CampaignOptions(CommandLine.arguments.dropFirst())
        let run = try CampaignRun(options: options)
        let result: CampaignResult
        let ceiling: Double
        do {
            try await run.seed()
            ceiling = try await run.pushCeiling()
            result = try await run.update()
        } catch {
            run.stop()  // no service left running behind a failed run
            throw error
        }
        run.stop()
        result.print(options: options, pushCeiling: ceiling, seedRate: run.seedRate)
        if result.lost > 0 { exit(1) }
    }
}

struct CampaignOptions {
    var binary = ".build/release/passmint"
    /// `sqlite`, or a postgres:// URL of an empty database.
    var database = "sqlite"
    var nodes = 1
    /// Passes with one device each.
    var single = 100_000
    /// Devices holding `perDevice` passes each.
    var shared = 20_000
    var perDevice = 5
    var kill = false
    /// How long the mock APNs server waits before each answer: pushes are still in flight when the node is killed.
    var apnsDelay = 0
    /// Tokens pushed by the APNs client alone, for the push ceiling.
    var ceilingTokens = 20_000

    init(_ arguments: ArraySlice<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { throw CampaignError("\(argument) needs a value") }
            switch argument {
            case "--binary": binary = value
            case "--database": database = value
            case "--nodes": nodes = Int(value) ?? 1
            case "--single": single = Int(value) ?? single
            case "--shared": shared = Int(value) ?? shared
            case "--kill": kill = value == "1"
            case "--apns-delay-ms": apnsDelay = Int(value) ?? 0
            case "--ceiling-tokens": ceilingTokens = Int(value) ?? ceilingTokens
            default: throw CampaignError("unknown option \(argument)")
            }
        }
    }
}

struct CampaignError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
