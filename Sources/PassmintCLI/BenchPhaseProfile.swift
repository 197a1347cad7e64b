import Foundation
import Passmint
import PassmintBatch

/// Times each step of building one pass on one thread, to show what bounds the batch.
enum PhaseProfile {
    static func measure(template: PassTemplate, sample: JSONObject, builder: PassBuilder, folder: String, iterations: Int) throws -> [(
        String, Double
    )] {
        let files = folder + "/phases"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: files) }
        // CPU time of this thread: other processes on the cores do not count.
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = SigningSpeed.threadCPUNanoseconds()
            for _ in 0..<iterations { try body() }
            return Double(SigningSpeed.threadCPUNanoseconds() - start) / 1e3 / Double(iterations)
        }
        // Rows personalised as the batch's are, so that each step does the work a row of its own costs.
        let rows = (1...16).map { BenchCommand.row(sample, $0) }
        var next = 0
        func row() -> JSONObject {
            next = (next + 1) % rows.count
            return rows[next]
        }
        let rendered = try template.render(data: sample)
        let prepared = try builder.prepare(PassInput(template: template, data: sample))
        let pass = try builder.sign(prepared)
        var results: [(String, Double)] = []
        results.append(("render", try time { _ = try template.render(data: row()) }))
        results.append(("lint (whole pass.json)", time { _ = PassLinter.lintJSON(rendered) }))
        results.append(("check (render, lint, identity)", try time { _ = try builder.check(PassInput(template: template, data: row())) }))
        results.append(("JSON", time { _ = JSONWriter.data(.object(rendered)) }))
        results.append(("prepare (check, JSON)", try time { _ = try builder.prepare(PassInput(template: template, data: row())) }))
        results.append(
            ("raw signature", 1e6 * SigningSpeed.measure(key: builder.identity.privateKey, threads: 1, seconds: 0.5).cpuSecondsPerSignature)
        )
        results.append(("PKCS#7 signature", try time { _ = try builder.identity.signDetached(pass.manifest) }))
        results.append(("sign (+manifest, zip)", try time { _ = try builder.signArchive(prepared) }))
        let archive = try builder.signArchive(prepared).archive
        results.append(("sha256 (report)", time { _ = archive.sha256Hex() }))
        var counter = 0
        results.append(
            (
                "write file",
                try time {
                    counter += 1
                    try FileIO.writeAtomically(archive, to: files + "/\(counter).pkpass", durable: false, startWriteback: true)
                }
            ))
        results.append(
            ("whole pass", try time { _ = try builder.signArchive(try builder.prepare(PassInput(template: template, data: row()))) }))
        return results
    }
}
