import Foundation
import Passmint
import PassmintBatch
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint bench` prints the batch next to the limits it measured in the same run.
@Suite(.serialized, .offPool) struct BenchCommandTests {
    @Test func printsTheLimitsAndTheRatiosToThem() throws {
        let chain = try TestEnvironment.devChain()
        let result = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "bench", "--passes", "40", "--sign-seconds", "0.4", "--file-seconds", "0.3", "--openssl-seconds", "1", "--json",
                "--certificates", chain.path, "--out-dir", TestEnvironment.temporaryFolder("bench").path,
            ], in: TestEnvironment.repositoryRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try JSONParser.value(Array(result.stdout.utf8))
        func number(_ key: String) -> Double { figures[key]?.numberValue.flatMap { Double($0.text) } ?? -1 }
        #expect(figures["passes"] == 40)
        #expect(number("rawSignaturesPerSecond") > 0)
        #expect(number("filesPerSecond") > 0)
        // The file rate is the mean of the rates before and after the batch, as the signing rate is.
        #expect(number("filesPerSecondBefore") > 0 && number("filesPerSecondAfter") > 0)
        #expect(abs(number("filesPerSecond") - (number("filesPerSecondBefore") + number("filesPerSecondAfter")) / 2) <= 0.2)
        #expect(figures["opensslAlgorithm"] == "rsa2048", "the openssl command is installed here, and the key is RSA-2048")
        #expect(number("opensslSpeed") > 0)
        // The combined limit and the ratios are what the figures next to them say.
        let signing = max(number("rawSignaturesPerSecond"), number("opensslSpeed"))
        let combined = 1 / (1 / signing + 1 / number("filesPerSecond"))
        #expect(abs(number("combinedLimit") - combined) <= 0.2)
        // Rates are printed to 0.05 either way and ratios to 0.0005; a ratio recomputed from printed rates can be off by
        // that much, and no more (a slow machine issues few passes per second, so the bound is not a fixed fraction).
        func agrees(_ ratio: Double, _ limit: Double) -> Bool {
            let rate = number("passesPerSecond")
            return abs(ratio - rate / limit) <= 0.0006 + 0.06 * (1 + rate / limit) / limit
        }
        #expect(agrees(number("ratioToCombined"), combined))
        #expect(agrees(number("ratioToSigning"), signing))
        #expect(figures["phasesMicroseconds"]?["raw signature"] != nil)
        #expect(number("cpuMicrosecondsPerSignature") > 0 && number("cpuMicrosecondsPerPass") > 0)
        #expect(figures["fileSystem"]?.stringValue?.isEmpty == false)
    }

    @Test func issuesIntoOneArchiveWithOutArchive() throws {
        let chain = try TestEnvironment.devChain()
        let result = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "bench", "--passes", "20", "--sign-seconds", "0.2", "--file-seconds", "0.2", "--openssl-seconds", "1", "--json",
                "--out-archive", "--certificates", chain.path, "--out-dir", TestEnvironment.temporaryFolder("bench-archive").path,
            ], in: TestEnvironment.repositoryRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try JSONParser.value(Array(result.stdout.utf8))
        #expect(figures["passes"] == 20)
        #expect(figures["failed"] == 0)
        #expect(figures["output"] == "into one archive")
    }

    /// Any template with any data: the heaviest shipped template (the poster event ticket, with its artwork) with data of
    /// its own, its passes the size its images make them.
    @Test func takesAnyTemplateAndItsData() throws {
        let chain = try TestEnvironment.devChain()
        let folder = TestEnvironment.temporaryFolder("bench-template")
        let sample = try JSONParser.value(try FileIO.read("PassTemplates/PosterEventTicket.json", what: "sample"))
        var data = try #require(sample.objectValue)
        data["serialNumber"] = "BENCH-DATA"
        let path = folder.appendingPathComponent("data.json").path
        try FileIO.writeAtomically(JSONWriter.data(.object(data)), to: path)
        func bench(_ template: String, _ more: [String] = []) throws -> JSONValue {
            let result = try TestEnvironment.run(
                CreateCommandTests.binary,
                [
                    "bench", "--passes", "10", "--sign-seconds", "0.2", "--file-seconds", "0.2", "--openssl-seconds", "1", "--json",
                    "--certificates", chain.path, "--out-dir", folder.path, "--template", template,
                ] + more, in: TestEnvironment.repositoryRoot)
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONParser.value(Array(result.stdout.utf8))
        }
        let poster = try bench("PassTemplates/PosterEventTicket.pass", ["--data", path])
        let loyalty = try bench("PassTemplates/Loyalty.pass")
        #expect(poster["passes"] == 10 && poster["failed"] == 0)
        let (heavy, light) = (
            poster["bytesPerPass"]?.numberValue.flatMap { Int($0.text) } ?? 0,
            loyalty["bytesPerPass"]?.numberValue.flatMap { Int($0.text) } ?? 0
        )
        #expect(heavy > light && light > 0, "\(heavy) bytes against \(light)")
    }

    @Test func fileCreationSpeedLeavesNothingBehind() throws {
        let folder = TestEnvironment.temporaryFolder("file-speed")
        let rate = try FileCreationSpeed.filesPerSecond(folder: folder.path, bytes: 10_000, threads: 2, seconds: 0.2)
        #expect(rate > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
