import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint bench --orders`: Wallet orders built beside passes in the same run, both rates printed.
@Suite(.serialized, .offPool) struct BenchOrdersTests {
    @Test func buildsOrdersAndAsManyPassesAndPrintsBothRates() throws {
        let result = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "bench", "--passes", "10", "--sign-seconds", "0.2", "--file-seconds", "0.2", "--openssl-seconds", "1", "--json",
                "--certificates", try TestEnvironment.devChain().path, "--orders", "30", "--order-certificates",
                try TestEnvironment.orderChain().path, "--out-dir", TestEnvironment.temporaryFolder("bench-orders").path,
            ], in: TestEnvironment.repositoryRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let orders = try #require(try JSONParser.value(Array(result.stdout.utf8))["orders"], "\(result.stdout)")
        #expect(orders["built"] == 30)
        #expect((orders["ordersPerSecond"]?.numberValue?.doubleValue ?? 0) > 0, "\(orders)")
        #expect((orders["passesInMemoryPerSecond"]?.numberValue?.doubleValue ?? 0) > 0, "\(orders)")
        // An order of the Shipment sample: images, strings, manifest and signature, zipped.
        #expect((orders["bytesPerOrder"]?.numberValue?.intValue ?? 0) > 5_000, "\(orders)")
    }

    @Test func ordersWithoutTheirCertificateAreRefused() throws {
        let result = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "bench", "--passes", "2", "--sign-seconds", "0.1", "--file-seconds", "0.1", "--openssl-seconds", "1",
                "--certificates", try TestEnvironment.devChain().path, "--orders", "3",
                "--out-dir", TestEnvironment.temporaryFolder("bench-orders-refused").path,
            ], in: TestEnvironment.repositoryRoot)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--order-certificates"), "\(result.stderr)")
    }
}
