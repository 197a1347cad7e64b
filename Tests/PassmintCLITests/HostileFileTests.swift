import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// Files from anyone given to `verify`, `lint` and `batch`: an archive holding a name twice, a file far larger than
/// any pass, a row or a header of megabytes.
@Suite(.offPool) struct HostileFileTests {
    let inspection = InspectionCommandTests()

    /// A signed pass with a second, unsigned `pass.json` in front of the signed one.
    func passWithTwoPassJSONs() throws -> URL {
        let pass = try inspection.buildLoyalty()
        let entries = try ZipArchive.read([UInt8](try Data(contentsOf: pass)), source: "built")
        let original = try #require(entries.first { $0.name == "pass.json" })
        let forged = String(decoding: original.bytes, as: UTF8.self).replacingOccurrences(of: "Mint Leaf", with: "Fake Leaf")
        let archive = try ZipArchive.make([ZipArchive.Entry(name: "pass.jsoX", bytes: Array(forged.utf8), compressed: true)] + entries)
        let file = TestEnvironment.temporaryFolder("twice").appendingPathComponent("twice.pkpass")
        try Data(ZipRewriter.renaming("pass.jsoX", to: "pass.json", in: archive)).write(to: file)
        return file
    }

    @Test func verifyAndLintRefuseAPassHoldingAnEntryTwiceNamingIt() throws {
        let file = try passWithTwoPassJSONs()
        let root = try TestEnvironment.devChain().appendingPathComponent("root.pem").path
        let verify = try inspection.passmint(["verify", file.path, "--ca", root])
        #expect(verify.status == 1, "\(verify.stdout)")
        #expect(verify.stdout.contains("FAIL zip: \(file.path) holds two entries named pass.json"), "\(verify.stdout)")
        let lint = try inspection.passmint(["lint", file.path])
        #expect(lint.status != 0, "\(lint.stdout)")
        #expect(lint.stderr.contains("holds two entries named pass.json"), "\(lint.stderr)")
    }

    @Test func verifyAndLintRefuseABundleHoldingTwoPassesOfOneName() throws {
        let pass = [UInt8](try Data(contentsOf: try inspection.buildLoyalty()))
        let bundle = try PassBundle.make([.init(name: "a.pkpass", archive: pass), .init(name: "b.pkpass", archive: pass)])
        let file = TestEnvironment.temporaryFolder("twice").appendingPathComponent("twice.pkpasses")
        try Data(ZipRewriter.renaming("b.pkpass", to: "a.pkpass", in: bundle)).write(to: file)
        let verify = try inspection.passmint(["verify", file.path])
        #expect(verify.status == 1, "\(verify.stdout)")
        #expect(verify.stdout.contains("holds two entries named a.pkpass"), "\(verify.stdout)")
        let lint = try inspection.passmint(["lint", file.path])
        #expect(lint.status != 0, "\(lint.stdout)")
        #expect(lint.stderr.contains("holds two entries named a.pkpass"), "\(lint.stderr)")
    }

    /// Runs passmint under Python, which reports the largest resident set of its child: the peak memory, in KiB.
    func peakMemory(_ arguments: [String]) throws -> (result: TestEnvironment.ProcessResult, kibibytes: Int) {
        let script = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
            sys.stdout.write(run.stdout)
            sys.stderr.write(run.stderr)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
            sys.exit(run.returncode)
            """
        let result = try TestEnvironment.run(
            "/usr/bin/env", ["python3", "-c", script, CreateCommandTests.binary] + arguments, in: TestEnvironment.repositoryRoot)
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        return (result, Int(last) ?? .max)
    }

    @Test(arguments: ["verify", "lint"])
    func aFileLargerThanAnyPassIsRefusedFromItsSizeWithoutBeingRead(_ command: String) throws {
        let file = TestEnvironment.temporaryFolder("huge").appendingPathComponent("huge.pkpass")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 300_000_000)  // sparse: no disk used, but 300 MB to read
        try handle.close()
        let (result, kibibytes) = try peakMemory([command, file.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("weighs 300.0 MB, more than the 150.0 MB"), "\(result.stderr)")
        #expect(kibibytes < 200 * 1024, "peak memory \(kibibytes) KiB")
    }

    @Test func aHeaderOfAMegabyteIsNotPrintedWhole() throws {
        let folder = TestEnvironment.temporaryFolder("header")
        let data = folder.appendingPathComponent("wide.csv")
        try Data((String(repeating: "x", count: 1 << 20) + ",memberName\nA,B\n").utf8).write(to: data)
        let result = try inspection.passmint([
            "batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", folder.appendingPathComponent("out").path,
            "--certificates", try TestEnvironment.devChain().path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("has no column for 7 placeholders serialNumber, "), "\(result.stderr.prefix(500))")
        #expect(result.stderr.contains("(its columns: xxxx"), "\(result.stderr.prefix(500))")
        #expect(result.stderr.utf8.count < 2_000, "\(result.stderr.utf8.count) bytes of error")
    }
}
