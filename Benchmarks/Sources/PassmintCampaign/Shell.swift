import Foundation

/// The benchmark's files and subprocesses: the repository it measures, throw-away folders, programs run to the end.
enum Shell {
    /// The repository root: the folder above `Benchmarks/` (the one holding PassTemplates and Certificates).
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("PassTemplates").path) { return url }
        }
        fatalError("no PassTemplates folder above \(#filePath)")
    }()

    /// A new empty folder under the system temporary directory.
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
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("campaign-out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("campaign-err-\(UUID().uuidString)")
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

    /// A development signing chain (`Certificates/make-dev-chain.sh`) in a new folder: signer.pem/.key, wwdr.pem, root.pem.
    static func devChain(in folder: URL) throws -> URL {
        let chain = folder.appendingPathComponent("chain")
        let result = try run(
            repositoryRoot.appendingPathComponent("Certificates/make-dev-chain.sh").path,
            ["--out", chain.path, "--uid", "pass.dev.passmint.example", "--team", "DEVTEAM123", "--force"])
        guard result.status == 0 else { throw CampaignError("make-dev-chain.sh failed: \(result.stderr)") }
        return chain
    }

    /// Makes a throw-away key and a self-signed certificate for `localhost` (the stand-in's TLS identity).
    static func selfSignedLocalhost(key: URL, certificate: URL) throws {
        let result = try run(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", certificate.path, "-days", "2", "-subj",
                "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        guard result.status == 0 else { throw CampaignError("openssl could not make the stand-in's certificate: \(result.stderr)") }
    }

    /// Makes an APNs-style auth key (`AuthKey_<id>.p8`, P-256) and its public half (PEM) for provider tokens.
    static func authKey(in folder: URL, keyIdentifier: String) throws -> (p8: URL, publicKey: URL) {
        let p8 = folder.appendingPathComponent("AuthKey_\(keyIdentifier).p8")
        let publicKey = folder.appendingPathComponent("AuthKey_\(keyIdentifier).pub.pem")
        let made = try run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8.path])
        guard made.status == 0 else { throw CampaignError("openssl could not make an APNs key: \(made.stderr)") }
        let extracted = try run("openssl", ["pkey", "-in", p8.path, "-pubout", "-out", publicKey.path])
        guard extracted.status == 0 else { throw CampaignError("openssl could not read the APNs key: \(extracted.stderr)") }
        return (p8, publicKey)
    }
}

struct CampaignError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
