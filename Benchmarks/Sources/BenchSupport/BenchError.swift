public import Foundation

/// The benchmarks' files and subprocesses: the repository they measure, throw-away folders, programs run to the end,
/// a development signing chain.
public enum BenchShell {
    /// The repository root: the folder above `Benchmarks/` (the one holding PassTemplates and Certificates).
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("PassTemplates").path) { return url }
        }
        fatalError("no PassTemplates folder above \(#filePath)")
    }()

    /// A new empty folder under the system temporary directory.
    public static func temporaryFolder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// How a program ended, and what it printed.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` (a path, or a name looked up in PATH) to its end, its output captured in files.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = (executable.hasPrefix("/") ? [] : [executable]) + arguments
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bench-out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("bench-err-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A development signing chain (`Certificates/make-dev-chain.sh`) for `uid` in `folder`/chain: signer.pem/.key,
    /// wwdr.pem, root.pem.
    public static func devChain(in folder: URL, uid: String) throws -> URL {
        let chain = folder.appendingPathComponent("chain")
        let result = try run(
            repositoryRoot.appendingPathComponent("Certificates/make-dev-chain.sh").path,
            ["--out", chain.path, "--uid", uid, "--team", "DEVTEAM123", "--force"])
        guard result.status == 0 else { throw BenchError("make-dev-chain.sh failed: \(result.stderr)") }
        return chain
    }
}

extension BenchShell {
    /// Makes a throw-away private key at `privateKey` with `openssl genpkey` and `options` (its algorithm and size), and
    /// its public half (PEM) at `publicKey`; `purpose` names the key in errors ("an APNs key").
    public static func keyPair(_ options: [String], privateKey: URL, publicKey: URL, purpose: String) throws {
        let made = try run("openssl", ["genpkey"] + options + ["-out", privateKey.path])
        guard made.status == 0 else { throw BenchError("openssl could not make \(purpose): \(made.stderr)") }
        let extracted = try run("openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path])
        guard extracted.status == 0 else { throw BenchError("openssl could not read \(purpose): \(extracted.stderr)") }
    }
}

/// Why a benchmark cannot go on, in words.
public struct BenchError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Duration {
    /// The duration in seconds, fractions included.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
