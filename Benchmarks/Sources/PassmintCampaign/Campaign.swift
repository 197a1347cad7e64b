import Foundation

/// The campaign benchmark (`scripts/bench-campaign.sh`): a service (one node on SQLite, or two on PostgreSQL)
/// holding passes with registered devices, one bulk update touching every pass, pushes drained to an APNs stand-in
/// over HTTP/2 + TLS; optionally a `kill -9` of the node running the job in the middle. Before the update it measures,
/// in the same run and against the same stand-in, what the stand-in takes from a bare HTTP/2 client and what the
/// APNs client pushes on its own; it prints them beside rows/s committed, pushes/s through the service, pushes
/// against distinct (device, pass type) pairs, time to drain and pushes lost.
@main struct Campaign {
    static func main() async throws {
        let options = try CampaignOptions(CommandLine.arguments.dropFirst())
        let run = try CampaignRun(options: options)
        var result: CampaignResult
        let ceilings: PushCeilings
        do {
            try await run.seed()
            ceilings = try await run.pushCeilings()
            result = try await run.update()
            result.patchRate = try await run.patches(count: options.patches)
            result.signingRate = options.patches > 0 ? try run.signingCeiling() : 0
        } catch {
            try? run.stop()  // no service left running behind a failed run
            FileHandle.standardError.write(Data("campaign failed: \(error)\n".utf8))
            exit(1)
        }
        do {
            try run.stop()
        } catch {
            FileHandle.standardError.write(Data("campaign failed: \(error)\n".utf8))
            exit(1)
        }
        result.print(options: options, ceilings: ceilings, seedRate: run.seedRate)
        if result.lost > 0 || !result.refused.isEmpty { exit(1) }
    }

    /// A phase's start or end on standard error (`campaign phase: update started`), for a profiler to start and stop
    /// on (e.g. `perf record` over the update alone).
    static func phase(_ name: String) {
        FileHandle.standardError.write(Data("campaign phase: \(name) \(Date().timeIntervalSince1970)\n".utf8))
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
    /// How long the APNs stand-in waits before each answer: pushes are still in flight when the node is killed.
    var apnsDelay = 0
    /// Pushes sent by the bare HTTP/2 client and by the APNs client alone, for the ceilings.
    var ceilingTokens = 50_000
    /// Event loops of the APNs stand-in; connections of its bare HTTP/2 client.
    var standInThreads = 4
    /// HTTP/2 connections of the APNs client, alone and in every node (`serve --apns-connections`).
    var apnsConnections = 2
    /// `certificate` (TLS client certificate, the default) or `token` (a .p8 key's provider tokens).
    var apnsAuthentication = "certificate"
    /// Single PATCHes after the bulk update, from 64 clients over every node (0: none).
    var patches = 20_000

    init(_ arguments: ArraySlice<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { throw CampaignError("\(argument) needs a value") }
            switch argument {
            case "--binary": binary = value
            case "--database": database = value
            case "--nodes": nodes = try Self.number(value, argument)
            case "--single": single = try Self.number(value, argument)
            case "--shared": shared = try Self.number(value, argument)
            case "--kill": kill = value == "1"
            case "--apns-delay-ms": apnsDelay = try Self.number(value, argument)
            case "--ceiling-tokens": ceilingTokens = try Self.number(value, argument)
            case "--stand-in-threads": standInThreads = try Self.number(value, argument)
            case "--apns-connections": apnsConnections = max(1, try Self.number(value, argument))
            case "--patches": patches = try Self.number(value, argument)
            case "--apns-auth":
                guard ["certificate", "token"].contains(value) else {
                    throw CampaignError("--apns-auth \(value): give certificate or token")
                }
                apnsAuthentication = value
            default: throw CampaignError("unknown option \(argument)")
            }
        }
    }

    private static func number(_ value: String, _ option: String) throws -> Int {
        guard let number = Int(value), number >= 0 else { throw CampaignError("\(option) \(value): give a whole number") }
        return number
    }
}
