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

    /// The variable naming the campaign driver (`Benchmarks/`, product `PassmintCampaign`), which `scripts/test.sh` builds.
    public static let campaignDriverVariable = "PASSMINT_TEST_CAMPAIGN_DRIVER"

    /// Whether the campaign test runs: ``campaignDriverVariable`` names the driver, or every test must run.
    public static var runsCampaignTests: Bool {
        requiresAll || !(ProcessInfo.processInfo.environment[campaignDriverVariable] ?? "").isEmpty
    }

    /// The campaign driver ``campaignDriverVariable`` names; an error saying how to build it when it names none.
    public static func campaignDriver() throws -> String {
        let path = ProcessInfo.processInfo.environment[campaignDriverVariable] ?? ""
        guard !path.isEmpty, FileManager.default.isExecutableFile(atPath: path) else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [
                    NSLocalizedDescriptionKey: "\(campaignDriverVariable) \(path.isEmpty ? "is not set" : "names no program: \(path)"): "
                        + "build the driver with `swift build --package-path Benchmarks --product PassmintCampaign "
                        + "--scratch-path .build-benchmarks` and set \(campaignDriverVariable) to "
                        + "`$(swift build --package-path Benchmarks --scratch-path .build-benchmarks --show-bin-path)/PassmintCampaign` "
                        + "(scripts/test.sh does both)"
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
