import Foundation

/// The bench's files and subprocesses: the repository it measures, throw-away folders, programs run to the end, keys.
enum BenchShell {
    /// The repository root: the folder above `Benchmarks/` (the one holding PassTemplates and Certificates).
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("PassTemplates").path) { return url }
        }
        fatalError("no PassTemplates folder above \(#filePath)")
    }()

    static func temporaryFolder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `executable` (a path, or a name looked up in PATH) to its end, its output captured in files.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = (executable.hasPrefix("/") ? [] : [executable]) + arguments
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("google-bench-out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("google-bench-err-\(UUID().uuidString)")
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

    /// A development signing chain (`Certificates/make-dev-chain.sh`) in `folder`.
    static func devChain(in folder: URL, uid: String) throws -> URL {
        let chain = folder.appendingPathComponent("chain")
        let result = try run(
            repositoryRoot.appendingPathComponent("Certificates/make-dev-chain.sh").path,
            ["--out", chain.path, "--uid", uid, "--team", "DEVTEAM123", "--force"])
        guard result.status == 0 else { throw BenchError("make-dev-chain.sh failed: \(result.stderr)") }
        return chain
    }

    /// A throw-away RSA key for a Google service account, made now, and its public half (for the stand-in).
    static func serviceAccountKey(in folder: URL) throws -> (privateKey: URL, publicKey: URL) {
        let key = folder.appendingPathComponent("service-account.pem")
        let publicKey = folder.appendingPathComponent("service-account.pub.pem")
        let made = try run("openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key.path])
        guard made.status == 0 else { throw BenchError("openssl could not make a service account key: \(made.stderr)") }
        let extracted = try run("openssl", ["pkey", "-in", key.path, "-pubout", "-out", publicKey.path])
        guard extracted.status == 0 else { throw BenchError("openssl could not read the service account key: \(extracted.stderr)") }
        return (key, publicKey)
    }

    /// The service account's key file as Google Cloud console makes it, pointing at `tokenURL`.
    static func serviceAccountFile(in folder: URL, privateKey: URL, email: String, tokenURL: String) throws -> URL {
        let json: [String: String] = [
            "type": "service_account", "project_id": "passmint-bench", "private_key_id": "bench-key-1",
            "private_key": try String(contentsOf: privateKey, encoding: .utf8), "client_email": email, "client_id": "1",
            "token_uri": tokenURL,
        ]
        let keyFile = folder.appendingPathComponent("service-account.json")
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: keyFile)
        return keyFile
    }
}
