import Foundation

/// What some suites need beyond Swift and the C libraries: a PostgreSQL server and Chromium. Without them `swift test`
/// skips those suites (`.enabled(if:)`), so the tests run on a laptop that has neither; `scripts/test.sh` (CI) sets
/// `PASSMINT_TEST_REQUIRE_ALL=1`, which runs them all anyway, so a missing dependency fails there instead of
/// skipping.
extension TestEnvironment {
    /// `PASSMINT_TEST_REQUIRE_ALL=1`: nothing may be skipped for a missing dependency.
    public static var requiresAll: Bool { ProcessInfo.processInfo.environment["PASSMINT_TEST_REQUIRE_ALL"] == "1" }

    /// Whether the PostgreSQL tests run: `PASSMINT_TEST_POSTGRES_URL` is set, or PostgreSQL's programs are installed
    /// (a throw-away server is then started, see ``postgresURL()``), or every test must run.
    public static var runsPostgreSQLTests: Bool {
        if requiresAll || !(ProcessInfo.processInfo.environment["PASSMINT_TEST_POSTGRES_URL"] ?? "").isEmpty { return true }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }
            && onPath("psql")
    }

    /// Whether the browser tests run: Chromium is installed (`PASSMINT_CHROMIUM`, or chromium, chromium-browser or
    /// google-chrome on PATH), or every test must run.
    public static var runsChromiumTests: Bool {
        if requiresAll { return true }
        if let given = ProcessInfo.processInfo.environment["PASSMINT_CHROMIUM"], !given.isEmpty { return true }
        return ["chromium", "chromium-browser", "google-chrome"].contains(where: onPath)
    }

    /// The variable naming the campaign driver (the root package's executable target `PassmintCampaign`), which
    /// `scripts/test.sh` sets to the one `swift build --build-tests` built.
    public static let campaignDriverVariable = "PASSMINT_TEST_CAMPAIGN_DRIVER"

    /// Whether the campaign test runs: ``campaignDriverVariable`` names the driver, or every test must run.
    public static var runsCampaignTests: Bool {
        requiresAll || !(ProcessInfo.processInfo.environment[campaignDriverVariable] ?? "").isEmpty
    }

    /// The campaign driver ``campaignDriverVariable`` names, or else the one built beside this test program (the same
    /// build folder); an error saying how to build it when there is none.
    public static func campaignDriver() throws -> String {
        let named = ProcessInfo.processInfo.environment[campaignDriverVariable] ?? ""
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("PassmintCampaign").path
        let path = named.isEmpty ? beside : named
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [
                    NSLocalizedDescriptionKey: "no campaign driver at \(path)"
                        + (named.isEmpty ? " (\(campaignDriverVariable) is not set)" : " (named by \(campaignDriverVariable))")
                        + ": build it with `swift build --build-tests` (or `swift build --product PassmintCampaign`) and set "
                        + "\(campaignDriverVariable) to `$(swift build --show-bin-path)/PassmintCampaign` (scripts/test.sh does both)"
                ])
        }
        return path
    }

    /// The store backends the tests run against: SQLite, and PostgreSQL when it runs.
    public static var storeBackends: [String] { runsPostgreSQLTests ? ["sqlite", "postgres"] : ["sqlite"] }

    private static func onPath(_ name: String) -> Bool {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}
