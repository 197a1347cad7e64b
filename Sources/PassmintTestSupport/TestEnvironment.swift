public import Foundation

/// Paths and helpers shared by Passmint's test suites: the repository root, the fixtures in `Tests/Fixtures`, development
/// certificate chains made by `Certificates/make-dev-chain.sh`, temporary folders and subprocesses.
public enum TestEnvironment {
    /// The package root (the folder holding Package.swift).
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// `Tests/Fixtures` in the repository (its README gives each file's origin and SHA-256).
    public static var fixtures: URL { repositoryRoot.appendingPathComponent("Tests/Fixtures") }

    /// Apple's five signed sample passes.
    public static var applePasses: [URL] {
        let folder = fixtures.appendingPathComponent("real-passes")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".pkpass") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// A new empty folder under the system temporary directory.
    public static func temporaryFolder(_ label: String = "passmint") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The result of a finished subprocess.
    public struct ProcessResult: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs a program to completion. `environment` entries are added to this process's environment.
    ///
    /// Spawned with `posix_spawn` and reaped with `waitpid` on its own pid, not with Foundation's `Process`: with many
    /// tests spawning at once, `Process.waitUntilExit()` was seen to miss the exit of a child that had ended (left a
    /// zombie, the test hung).
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil)
        throws -> ProcessResult
    {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let program = executable.hasPrefix("/") ? executable : "/usr/bin/env"
        var argv = [program] + (executable.hasPrefix("/") ? [] : [executable]) + arguments
        if let directory {  // posix_spawn has no portable chdir: let a shell change folder, then exec the program
            argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path] + argv
        }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = variables.map { strdup($0) } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw CocoaError(
                .executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))"])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw CocoaError(
                    .executableLoad,
                    userInfo: [NSLocalizedDescriptionKey: "cannot wait for \(argv[0]): \(String(cString: strerror(errno)))"])
            }
        }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ProcessResult(
            status: exitStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    private static let chains = MadeOnce<URL>()

    /// A development chain (root, WWDR-like intermediate, Pass Type ID leaf) made once per process and set of
    /// options by `Certificates/make-dev-chain.sh`. Files: root.pem, wwdr.pem, signer.pem, signer.key,
    /// signer-encrypted.key, signer.p12, signer-legacy.p12 (passphrase ``devPassphrase``).
    public static func devChain(
        uid: String = "pass.dev.passmint.example", team: String = "DEVTEAM123", expired: Bool = false, nfc: Bool = false
    ) throws -> URL {
        let key = "\(uid)|\(team)|\(expired)|\(nfc)"
        return try chains.value(key) {
            let folder = temporaryFolder("chain")
            var arguments = ["--out", folder.path, "--uid", uid, "--team", team, "--force"]
            if expired { arguments.append("--expired") }
            if nfc { arguments.append("--nfc") }
            let result = try run(repositoryRoot.appendingPathComponent("Certificates/make-dev-chain.sh").path, arguments)
            guard result.status == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "make-dev-chain.sh failed: \(result.stderr)"])
            }
            return folder
        }
    }

    private static let typeFolders = MadeOnce<URL>()

    /// A certificates folder with one sub-folder per pass type identifier (`<folder>/<uid>/signer.pem`, `signer.key`,
    /// `wwdr.pem`, …), every certificate issued by the same development root and WWDR-like intermediate, as Apple
    /// issues a team's Pass Type ID certificates. The shared root is `<folder>/root.pem`. Made once per process and
    /// set of identifiers.
    public static func passTypeFolders(uids: [String], team: String = "DEVTEAM123") throws -> URL {
        let key = uids.joined(separator: "|") + "|" + team
        return try typeFolders.value(key) {
            let issuer = try devChain(uid: uids[0], team: team)
            let folder = temporaryFolder("certificates")
            for uid in uids {
                let arguments = [
                    "--out", folder.appendingPathComponent(uid).path, "--uid", uid, "--team", team, "--issuer", issuer.path, "--force",
                ]
                let result = try run(repositoryRoot.appendingPathComponent("Certificates/make-dev-chain.sh").path, arguments)
                guard result.status == 0 else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "make-dev-chain.sh failed: \(result.stderr)"])
                }
            }
            try FileManager.default.copyItem(at: issuer.appendingPathComponent("root.pem"), to: folder.appendingPathComponent("root.pem"))
            return folder
        }
    }

    private static let postgres = MadeOnce<String>()

    /// A new, empty database on the test PostgreSQL server, for a test that must not share tables with the others
    /// running beside it (the push queue: every service drains the whole queue of its database).
    public static func freshPostgresURL() throws -> String {
        let base = try postgresURL()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        let result = try run("/usr/bin/env", ["psql", base, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
        guard result.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot create database \(name): \(result.stderr)"])
        }
        // The database is the URL's path; its query (sslmode, sslrootcert=/a/path) is kept as it is.
        guard var components = URLComponents(string: base) else { return base }
        components.path = "/" + name
        return components.string ?? base
    }

    /// The URL of a PostgreSQL database for tests: `PASSMINT_TEST_POSTGRES_URL` when set (scripts/test.sh starts a
    /// server and sets it), otherwise a server this process starts once with `scripts/postgres-test-server.sh`.
    public static func postgresURL() throws -> String {
        if let url = ProcessInfo.processInfo.environment["PASSMINT_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        return try postgres.value("") {
            let result = try run(
                repositoryRoot.appendingPathComponent("scripts/postgres-test-server.sh").path,
                ["start", FileManager.default.temporaryDirectory.appendingPathComponent("passmint-postgres-tests").path, "0"])
            guard result.status == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot start PostgreSQL: \(result.stderr)"])
            }
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The order type identifier of ``orderChain()``.
    public static let devOrderType = "order.dev.passmint.example"

    /// A development chain whose leaf is an Order Type ID certificate (UID ``devOrderType``, CN "Order Type ID: …"),
    /// made at test time by `Certificates/make-dev-chain.sh` like ``devChain(uid:team:expired:nfc:)``.
    public static func orderChain(team: String = "DEVTEAM123", expired: Bool = false) throws -> URL {
        try devChain(uid: devOrderType, team: team, expired: expired)
    }

    /// Runs `scripts/check-order.sh`: Python's zipfile, manifest SHA-256s recomputed by hashlib, `openssl cms -verify`
    /// (detached, SHA-256) to `root`, signing time, intermediate and an `order.` UID present.
    public static func independentlyCheckOrder(_ order: URL, root: URL) throws -> ProcessResult {
        try run(repositoryRoot.appendingPathComponent("scripts/check-order.sh").path, [order.path, root.path])
    }

    /// The passphrase of the development chain's encrypted key and `.p12` files.
    public static let devPassphrase = "passmint-dev"

    /// Runs `scripts/check-pkpass.sh`: unzip -t, manifest SHA-1s recomputed by Python, `openssl smime -verify` to
    /// `root`, signing time and intermediate present.
    public static func independentlyCheck(_ pkpass: URL, root: URL) throws -> ProcessResult {
        try run(repositoryRoot.appendingPathComponent("scripts/check-pkpass.sh").path, [pkpass.path, root.path])
    }
}
