import ArgumentParser
import Foundation
import Passmint

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure batch issuing against the raw signing speed of the same key, in one run.",
        discussion: """
            1. Signs with the identity's private key on --jobs threads for a few seconds: raw signatures/s, the \
            physical limit of this machine. 2. Issues --passes passes from the template through the same code as \
            `passmint batch` into a temporary folder. 3. Prints passes/s, the ratio passes/s ÷ raw signatures/s, peak \
            RSS and bytes per pass. Rows are the template's sample data (<template>.json next to the folder) with a \
            new serial number each.
            """
    )

    @Option(help: "Passes to issue.") var passes = 20_000
    @Option(help: "Threads for signing and for the batch (default: the number of cores).") var jobs: Int?
    @Option(help: ArgumentHelp("Template folder.", valueName: "dir")) var template = "PassTemplates/Loyalty.pass"
    @Option(help: ArgumentHelp("Seconds to measure the raw signing speed.", valueName: "s")) var signSeconds = 3.0
    @Flag(help: "Keep the output folder and print its path.") var keep = false
    @Option(help: ArgumentHelp("Folder for the passes (default: a new temporary folder).", valueName: "dir")) var outDir: String?
    @Flag(help: "Print the figures as JSON.") var json = false
    @OptionGroup(title: "Signing") var signing: SigningOptions

    func run() async throws {
        BatchRunner.tuneAllocator()
        let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let template = try PassTemplate(folder: template)
        let samplePath = String(self.template.hasSuffix("/") ? self.template.dropLast() : Substring(self.template))
            .replacingOccurrences(of: ".pass", with: "", options: .backwards) + ".json"
        let sample = try JSONParser.value(try FileIO.read(samplePath, what: "sample data")).objectValue ?? JSONObject()
        let identity = try signing.loadIdentity()

        // Raw signing is measured before and after the batch and averaged: this machine's speed drifts.
        let rawBefore = SigningSpeed.signaturesPerSecond(key: identity.privateKey, threads: jobs, seconds: signSeconds / 2)
        let phases = try PhaseProfile.measure(template: template, sample: sample, identity: identity, iterations: 300)

        let folder = (outDir.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory).appendingPathComponent("passmint-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let rows = folder + "/rows.jsonl"
        // Written in blocks, so the rows file does not count towards the batch's memory.
        _ = FileManager.default.createFile(atPath: rows, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: rows))
        var lines = Data()
        for index in 0..<passes {
            var row = sample
            row["serialNumber"] = .string(String(format: "BENCH-%07d", index))
            lines.append(contentsOf: JSONWriter.data(.object(row), style: .compact))
            lines.append(0x0A)
            if lines.count > 1 << 20 {
                try handle.write(contentsOf: lines)
                lines.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: lines)
        try handle.close()
        let output = folder + "/out"
        let runner = BatchRunner(template: template, builder: PassBuilder(identity: identity), options: BatchOptions(outputFolder: output, jobs: jobs))
        let cpuBefore = Self.cpuSeconds()
        let result = try await runner.run(try BatchInput(path: rows))
        let cpuUse = (Self.cpuSeconds() - cpuBefore) / max(result.elapsed, 0.001) / Double(jobs)
        let rawAfter = SigningSpeed.signaturesPerSecond(key: identity.privateKey, threads: jobs, seconds: signSeconds / 2)
        let rawRate = (rawBefore + rawAfter) / 2
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peakMB = Double(usage.ru_maxrss) / 1024
        let ratio = result.passesPerSecond / rawRate
        let bytesPerPass = result.issued > 0 ? result.bytes / result.issued : 0
        if !keep { try? FileManager.default.removeItem(atPath: folder) }

        if json {
            let figures: JSONValue = [
                "jobs": .number(JSONNumber(jobs)), "passes": .number(JSONNumber(result.issued)), "failed": .number(JSONNumber(result.failed)),
                "rawSignaturesPerSecond": .number(JSONNumber(rawRate.rounded())), "passesPerSecond": .number(JSONNumber(result.passesPerSecond.rounded())),
                "ratio": .number(JSONNumber((ratio * 1000).rounded() / 1000)), "cpuPerJob": .number(JSONNumber((cpuUse * 100).rounded() / 100)), "seconds": .number(JSONNumber((result.elapsed * 100).rounded() / 100)),
                "peakRSSMB": .number(JSONNumber((peakMB * 10).rounded() / 10)), "bytesPerPass": .number(JSONNumber(bytesPerPass)),
                "phasesMicroseconds": .object(JSONObject(phases.map { JSONObject.Member(key: $0.0, value: .number(JSONNumber(($0.1 * 10).rounded() / 10))) })),
            ]
            print(JSONWriter.string(figures), terminator: "")
        } else {
            print("template            \(template.folder) (\(template.files.count) files)")
            print("jobs                \(jobs)")
            print("raw RSA signing     \(Int(rawRate)) signatures/s (same key, \(jobs) threads; \(Int(rawBefore)) before, \(Int(rawAfter)) after the batch)")
            print("batch               \(result.issued) passes in \(String(format: "%.2f", result.elapsed)) s, \(result.failed) failed")
            print("passes/s            \(Int(result.passesPerSecond))")
            print("ratio               \(String(format: "%.3f", ratio)) (passes/s ÷ raw signatures/s)")
            print("CPU per job         \(String(format: "%.0f", cpuUse * 100)) % (user + system time ÷ elapsed ÷ jobs)")
            print("peak RSS            \(String(format: "%.1f", peakMB)) MB")
            print("bytes per pass      \(bytesPerPass)")
            if keep { print("output              \(output)") }
            print("one pass, one thread (µs):")
            for (name, micros) in phases { print("  \(name.padding(toLength: 18, withPad: " ", startingAt: 0))\(String(format: "%8.1f", micros))") }
        }
        if result.failed > 0 { throw ExitCode(1) }
    }
}

extension BenchCommand {
    /// User plus system CPU time of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// Times each step of building one pass on one thread, to show what bounds the batch.
enum PhaseProfile {
    static func measure(template: PassTemplate, sample: JSONObject, identity: SigningIdentity, iterations: Int) throws -> [(String, Double)] {
        let builder = PassBuilder(identity: identity)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-phases-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = ContinuousClock()
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = clock.now
            for _ in 0..<iterations { try body() }
            let elapsed = clock.now - start
            return (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(iterations)
        }
        let rendered = try template.render(data: sample)
        let passBytes = JSONWriter.data(.object(rendered))
        let manifest = PassBuilder.manifestBytes(passJSON: passBytes, files: template.files)
        let signature = try identity.signDetached(manifest)
        let entries = PassBuilder.archiveEntries(passJSON: passBytes, manifest: manifest, signature: signature, files: template.files)
        let archive = try ZipArchive.make(entries)
        var results: [(String, Double)] = []
        results.append(("render", try time { _ = try template.render(data: sample) }))
        results.append(("lint", time { _ = PassLinter.lintJSON(rendered) }))
        results.append(("json+manifest", time { _ = PassBuilder.manifestBytes(passJSON: JSONWriter.data(.object(rendered)), files: template.files) }))
        results.append(("raw RSA sign", 1e6 / SigningSpeed.signaturesPerSecond(key: identity.privateKey, threads: 1, seconds: 0.5)))
        results.append(("sign (PKCS#7)", try time { _ = try identity.signDetached(manifest) }))
        results.append(("deflate JSON", time {
            _ = PrecompressedData(deflatingSmall: passBytes)
            _ = PrecompressedData(deflatingSmall: manifest)
        }))
        results.append(("zip", try time { _ = try ZipArchive.make(entries) }))
        results.append(("sha256 (report)", time { _ = template.sha256Hex(ofArchive: archive) }))
        var counter = 0
        results.append(("write file", try time {
            counter += 1
            try FileIO.writeAtomically(archive, to: folder + "/\(counter).pkpass", durable: false)
        }))
        results.append(("whole pass", try time { _ = try builder.build(template: template, data: sample) }))
        return results
    }
}
