import Foundation

/// What one bulk update did.
struct CampaignResult {
    var rows: Int
    var commitSeconds: Double
    var pushes: Int
    var distinctTokens: Int
    var expectedTokens: Int
    var pushSeconds: Double
    var drainSeconds: Double
    var lost: Int
    var owedLeft: Int
    var killed: Bool
    var failedRows: Int
    /// Pushes of the service the stand-in refused, by reason (none when the service pushes as APNs wants).
    var refused: [String: Int]
    /// Pushes that arrived after the job had committed, and how long from the commit to the last of them.
    var tailPushes: Int
    var tailSeconds: Double
    /// The job's node's resident memory (MiB) when the upload began, and the most it held while the job ran (sampled
    /// every 100 ms; after a kill, of the restarted node).
    var rssBeforeMiB: Int?
    var rssPeakMiB: Int?
    /// The job's node's RSS when each tenth of the job's lines was done (a node killed and restarted starts again).
    var rssByTenthMiB: [Int] = []
    /// Single PATCHes/s after the job, and the raw signing rate of the same run (each PATCH signs once).
    var patchRate = 0.0
    var signingRate = 0.0

    var pushRate: Double { Double(pushes) / max(pushSeconds, 0.001) }

    func print(options: CampaignOptions, ceilings: PushCeilings, seedRate: Double) {
        let store = options.database == "sqlite" ? "SQLite" : "PostgreSQL"
        Swift.print(
            "campaign: \(rows) passes, \(expectedTokens) devices, \(store), \(options.nodes) node(s)\(killed ? ", kill -9 of the job's node at 40 %" : ""), APNs auth: \(options.apnsAuthentication), \(options.apnsConnections) APNs connection(s) a node"
        )
        Swift.print(
            String(
                format: "  rows committed        %8.0f rows/s  (%.1f s; %d failed)   lazy import of the same rows: %.0f rows/s",
                Double(rows) / commitSeconds, commitSeconds, failedRows, seedRate))
        Swift.print(
            String(
                format:
                    "  pushes/s, same stand-in (%d threads): stand-in alone (bare HTTP/2) %.0f | APNs client alone %.0f | through the service %.0f (first to last push %.1f s)",
                ceilings.threads, ceilings.standIn, ceilings.client, pushRate, pushSeconds))
        if let single = ceilings.clientOneConnection {
            Swift.print(
                String(
                    format: "  APNs client alone     %.0f /s with %d connections, %.0f /s with one (%.2f ×)", ceilings.client,
                    options.apnsConnections, single, ceilings.client / single))
        }
        if let failure = ceilings.clientFailure {
            Swift.print(
                "  APNs client alone     \(ceilings.clientUndelivered) of \(ceilings.clientPushes) pushes not delivered (the first: \(failure)); its rate counts delivered pushes only"
            )
        }
        Swift.print(
            String(
                format: "  ratios                service / APNs client %.2f   service / stand-in %.2f   APNs client / stand-in %.2f",
                pushRate / ceilings.client, pushRate / ceilings.standIn, ceilings.client / ceilings.standIn))
        if tailPushes >= 1_000 {
            Swift.print(
                String(
                    format: "  after the commit      %8.0f /s      (%d pushes arrived after the job ended, the last %.1f s after it: "
                        + "the pushers' own pace)",
                    Double(tailPushes) / max(tailSeconds, 0.001), tailPushes, tailSeconds))
        }
        Swift.print(
            "  pushes sent           \(pushes) for \(distinctTokens) distinct (device, pass type) pairs of \(expectedTokens): \(pushes - distinctTokens) more than one per pair"
        )
        Swift.print(String(format: "  time to drain         %8.1f s from the upload's start", drainSeconds))
        Swift.print("  pushes lost           \(lost) (devices never pushed after their change)   owed left in the store: \(owedLeft)")
        Swift.print(
            "  RSS of the job's node \(rssBeforeMiB.map { "\($0)" } ?? "?") MiB when the upload began, peak \(rssPeakMiB.map { "\($0)" } ?? "?") MiB while the job ran"
        )
        Swift.print("  RSS at each tenth of the job (MiB): \(rssByTenthMiB.map(String.init).joined(separator: " "))")
        if options.patches > 0 {
            Swift.print(
                String(
                    format:
                        "  single PATCHes        %8.0f /s      (%d from 64 clients over %d node(s))   raw signing, same key, all cores: %.0f /s",
                    patchRate, options.patches, options.nodes, signingRate))
        }
        if !refused.isEmpty { Swift.print("  pushes refused        \(refused) (the stand-in checks them as APNs does)") }
    }
}
