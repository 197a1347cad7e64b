import ArgumentParser
import Foundation
import Passmint
import PassmintBatch

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure batch issuing against the limits of this machine, taken in the same run.",
        discussion: """
            The limits: 1. the key's raw signing rate on --jobs threads (signing contexts set up once, as pass signing \
            does), measured before and after the batch and averaged, and `openssl speed` for the same algorithm and key \
            size on --jobs processes when the openssl command exists; 2. the output folder's file-creation rate on --jobs \
            threads (create, write a buffer of the pass's size, start writeback, rename; the sync at the end counted), \
            measured before and after the batch and averaged; \
            3. because signing and writing share the cores, the combined limit 1 / (1/signing + 1/files). Then --passes \
            passes are issued from the template through the same code as `passmint batch` (JSON Lines rows, report, \
            durable output) into --out-dir (into one archive with --out-archive), and the batch's rate is printed \
            with its ratio to each limit, with peak RSS and the time of each step of one pass on one thread. Rows are the \
            template's sample data (--data, else <template>.json next to the folder) with a new serial number each. With --orders N \
            and --order-certificates, N Wallet orders of --order-template are built in memory on --jobs threads, then \
            N passes the same way, and both rates are printed.
            """
    )

    @Option(help: "Passes to issue.") var passes = 20_000
    @Option(help: "Threads for signing and for the batch (default: the number of cores).") var jobs: Int?
    @Option(help: ArgumentHelp("Template folder.", valueName: "dir")) var template = "PassTemplates/Loyalty.pass"
    @Option(help: ArgumentHelp("Sample data of the rows (default: <template>.json beside the folder).", valueName: "file.json"))
    var data: String?
    @Option(help: ArgumentHelp("Seconds to measure the raw signing speed (half before, half after the batch).", valueName: "s"))
    var signSeconds = 3.0
    @Option(help: ArgumentHelp("Seconds to measure the file-creation rate (half before, half after the batch).", valueName: "s"))
    var fileSeconds = 2.0
    @Option(help: ArgumentHelp("Seconds `openssl speed` runs (whole seconds).", valueName: "s")) var opensslSeconds = 2
    @Flag(help: "Keep the output and print its path.") var keep = false
    @Option(
        help: ArgumentHelp(
            "Folder for the output (default: a new temporary folder); its file system is the one measured.", valueName: "dir"))
    var outDir: String?
    @Flag(help: "Print the figures as JSON.") var json = false
    @Flag(help: "Issue into one archive of passes (as batch --out-archive) instead of a file per pass.") var outArchive = false
    @Option(help: "Wallet orders to build beside passes (in memory, as many passes after them; 0: none).") var orders = 0
    @Option(help: ArgumentHelp("Order template folder (its sample data beside it).", valueName: "dir"))
    var orderTemplate = "OrderTemplates/Shipment.order"
    @Option(help: ArgumentHelp("Folder with the Order Type ID certificate (as --certificates).", valueName: "dir"))
    var orderCertificates: String?
    @OptionGroup(title: "Signing") var signing: SigningOptions

    func validate() throws {
        if orders > 0 && orderCertificates == nil {
            throw ValidationError("--orders needs --order-certificates <dir>: the folder of the Order Type ID certificate")
        }
    }

    func run() async throws {
        MemoryAllocator.keepPassSizedBuffersOffMmap()
        let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let template = try PassTemplate(folder: template)
        let samplePath =
            data
            ?? String(self.template.hasSuffix("/") ? self.template.dropLast() : Substring(self.template))
            .replacingOccurrences(of: ".pass", with: "", options: .backwards) + ".json"
        let sample = try JSONParser.value(try TemplateFolder.file(samplePath, kind: .json, what: "sample data")).objectValue ?? JSONObject()
        let builder = PassBuilder(identities: try signing.loadIdentities())
        let identity = try builder.identities.identity(for: template.passJSON["passTypeIdentifier"]?.stringValue ?? "")

        let folder = (outDir.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("passmint-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: folder) } }
        let rows = try Self.writeRows(sample: sample, count: passes, folder: folder)
        let passSize = try builder.sign(PassInput(template: template, data: Self.row(sample, 0))).archive.count

        // The limits, then the batch, then the signing rate again: this machine's speed drifts.
        let rawBefore = SigningSpeed.measure(key: identity.privateKey, threads: jobs, seconds: signSeconds / 2)
        let openssl = OpenSSLSpeed.signaturesPerSecond(key: identity.privateKey, jobs: jobs, seconds: opensslSeconds)
        let filesBefore = try FileCreationSpeed.filesPerSecond(folder: folder, bytes: passSize, threads: jobs, seconds: fileSeconds / 2)
        let phases = try PhaseProfile.measure(template: template, sample: sample, builder: builder, folder: folder, iterations: 300)

        var options = BatchOptions(outputFolder: folder + "/out", jobs: jobs)
        if outArchive { options.output = .archive(path: folder + "/cards.zip") }
        let runner = BatchRunner(template: template, builder: builder, options: options)
        let cpuBefore = Self.cpuSeconds()
        let result = try await runner.run(try BatchInput(path: rows))
        let cpu = Self.cpuSeconds() - cpuBefore
        let rawAfter = SigningSpeed.measure(key: identity.privateKey, threads: jobs, seconds: signSeconds / 2)
        let filesAfter = try FileCreationSpeed.filesPerSecond(folder: folder, bytes: passSize, threads: jobs, seconds: fileSeconds / 2)
        var orderFigures: BenchOrders.Figures?
        if orders > 0 {
            guard let orderCertificates else { throw ValidationError("--orders needs --order-certificates <dir>") }  // see validate()
            let orderTemplate = try OrderTemplate(folder: orderTemplate)
            let orderSample =
                try JSONParser.value(
                    try TemplateFolder.file(
                        String(orderTemplate.folder.dropLast(".order".count)) + ".json", kind: .json, what: "order sample data")
                ).objectValue ?? JSONObject()
            var orderSigning = signing
            orderSigning.certificatesOption = orderCertificates
            (orderSigning.signerCert, orderSigning.signerKey, orderSigning.p12, orderSigning.wwdr) = (nil, nil, nil, nil)
            let bench = BenchOrders(
                template: orderTemplate, sample: orderSample, builder: OrderBuilder(identities: try orderSigning.loadIdentities()))
            orderFigures = try bench.measure(
                count: orders, jobs: jobs, passTemplate: template, passSample: sample, passBuilder: builder)
        }

        let figures = Figures(
            jobs: jobs, rawBefore: rawBefore.perSecond, rawAfter: rawAfter.perSecond,
            cpuPerSignature: (rawBefore.cpuSecondsPerSignature + rawAfter.cpuSecondsPerSignature) / 2, openssl: openssl,
            filesBefore: filesBefore,
            filesAfter: filesAfter,
            fileSystem: Self.fileSystemName(folder), result: result, cpuPerPass: result.issued > 0 ? cpu / Double(result.issued) : 0,
            peakMB: Self.peakRSSMegabytes(), bytesPerPass: result.issued > 0 ? result.bytes / result.issued : 0, phases: phases,
            sink: outArchive ? "into one archive" : "into files", orders: orderFigures)
        if json {
            print(JSONWriter.string(figures.json), terminator: "")
        } else {
            print("template            \(template.folder) (\(template.files.count) files)")
            figures.printText()
            if keep { print("output              \(folder)") }
        }
        if result.failed > 0 { throw ExitCode(1) }
    }

    /// The sample data personalised for member `index`, as a real batch's rows are: a new serial number, every
    /// number changed, every text that is not a date, color or URL made the member's own.
    static func row(_ sample: JSONObject, _ index: Int) -> JSONObject {
        var row = JSONObject()
        for member in sample {
            switch member.value {
            case .number(let number): row[member.key] = .number(JSONNumber(number.doubleValue + Double(index % 997)))
            case .string(let text) where W3CDate.parse(text) == nil && !text.hasPrefix("rgb(") && !text.hasPrefix("http"):
                row[member.key] = .string("\(text)-\(index)")
            default: row[member.key] = member.value
            }
        }
        row["serialNumber"] = .string(String(format: "BENCH-%07d", index))
        return row
    }

    /// The rows as JSON Lines, written in blocks so they do not count towards the batch's memory.
    static func writeRows(sample: JSONObject, count: Int, folder: String) throws -> String {
        let rows = folder + "/rows.jsonl"
        _ = FileManager.default.createFile(atPath: rows, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: rows))
        var lines = Data()
        for index in 0..<count {
            lines.append(contentsOf: JSONWriter.data(.object(row(sample, index)), style: .compact))
            lines.append(0x0A)
            if lines.count > 1 << 20 {
                try handle.write(contentsOf: lines)
                lines.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: lines)
        try handle.close()
        return rows
    }

    /// User plus system CPU time of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func peakRSSMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// The type of the file system holding `path` as /proc/mounts names it (ext4, tmpfs, …).
    static func fileSystemName(_ path: String) -> String {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return "unknown" }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best = ("", "unknown")
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1])
            if (resolved == point || resolved.hasPrefix(point == "/" ? "/" : point + "/")) && point.count > best.0.count {
                best = (point, String(fields[2]))
            }
        }
        return best.1
    }
}

/// What `passmint bench` prints.
struct Figures {
    var jobs: Int
    var rawBefore: Double
    var rawAfter: Double
    /// CPU seconds of one raw signature.
    var cpuPerSignature: Double
    var openssl: (algorithm: String, rate: Double)?
    var filesBefore: Double
    var filesAfter: Double
    var fileSystem: String
    var result: BatchProgress
    var cpuPerPass: Double
    var peakMB: Double
    var bytesPerPass: Int
    var phases: [(String, Double)]
    /// Where the batch put its passes.
    var sink: String
    /// Orders and passes built in memory, when asked.
    var orders: BenchOrders.Figures?

    var raw: Double { (rawBefore + rawAfter) / 2 }
    var fileRate: Double { (filesBefore + filesAfter) / 2 }
    /// The faster of the two signing figures: the key's speed.
    var signing: Double { max(raw, openssl?.rate ?? 0) }
    /// Signing and writing share the cores: one pass costs a signature and a file.
    var combined: Double { 1 / (1 / signing + 1 / fileRate) }
    var rate: Double { result.passesPerSecond }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    func printText() {
        print("jobs                \(jobs)")
        print("limits (same run)")
        print(
            "  signing in-process \(Int(raw)) signatures/s (same key, \(jobs) threads; \(Int(rawBefore)) before, \(Int(rawAfter)) after the batch)"
        )
        if let openssl {
            print("  openssl speed      \(Int(openssl.rate)) signatures/s (\(openssl.algorithm), \(jobs) processes)")
        } else {
            print("  openssl speed      not measured (no openssl command, or no speed test for this key)")
        }
        print(
            "  file creation      \(Int(fileRate)) files/s of \(bytesPerPass) bytes (\(fileSystem), \(jobs) threads, synced; \(Int(filesBefore)) before, \(Int(filesAfter)) after the batch)"
        )
        print("  combined           \(Int(combined)) passes/s = 1 / (1/\(Int(signing)) + 1/\(Int(fileRate)))")
        let seconds = String(format: "%.2f", result.elapsed)
        print("batch               \(result.issued) passes in \(seconds) s \(sink), durable, \(result.failed) failed")
        print("passes/s            \(Int(rate))")
        print(
            "ratio to signing    \(Self.format(rate / signing)) (in-process: \(Self.format(rate / raw))\(openssl.map { ", openssl speed: \(Self.format(rate / $0.rate))" } ?? ""))"
        )
        print("ratio to combined   \(Self.format(rate / combined))")
        print(
            "CPU per pass        \(String(format: "%.0f", cpuPerPass * 1e6)) µs (user + system, all threads; a raw signature: \(String(format: "%.0f", cpuPerSignature * 1e6)) µs of CPU, ratio \(Self.format(cpuPerSignature / cpuPerPass)))"
        )
        print("peak RSS            \(String(format: "%.1f", peakMB)) MB")
        print("bytes per pass      \(bytesPerPass)")
        print("one pass, one thread (µs of CPU):")
        for (name, micros) in phases {
            print("  \(name.padding(toLength: 34, withPad: " ", startingAt: 0))\(String(format: "%8.1f", micros))")
        }
        orders?.printText(jobs: jobs)
    }

    var json: JSONValue {
        func number(_ value: Double, _ scale: Double = 1) -> JSONValue { .number(JSONNumber((value * scale).rounded() / scale)) }
        var object: JSONObject = [
            "jobs": .number(JSONNumber(jobs)), "passes": .number(JSONNumber(result.issued)), "failed": .number(JSONNumber(result.failed)),
            "fileSystem": .string(fileSystem), "output": .string(sink),
            "rawSignaturesPerSecond": number(raw, 10), "filesPerSecond": number(fileRate, 10),
            "filesPerSecondBefore": number(filesBefore, 10), "filesPerSecondAfter": number(filesAfter, 10),
            "combinedLimit": number(combined, 10),
            "passesPerSecond": number(rate, 10), "ratioToSigning": number(rate / signing, 1000),
            "ratioToCombined": number(rate / combined, 1000),
            "cpuMicrosecondsPerPass": number(cpuPerPass * 1e6), "cpuMicrosecondsPerSignature": number(cpuPerSignature * 1e6),
            "seconds": number(result.elapsed, 100),
            "peakRSSMB": number(peakMB, 10), "bytesPerPass": .number(JSONNumber(bytesPerPass)),
            "phasesMicroseconds": .object(JSONObject(phases.map { JSONObject.Member(key: $0.0, value: number($0.1, 10)) })),
        ]
        if let orders { object["orders"] = orders.json }
        if let openssl {
            object["opensslSpeed"] = number(openssl.rate, 10)
            object["opensslAlgorithm"] = .string(openssl.algorithm)
        }
        return .object(object)
    }
}
