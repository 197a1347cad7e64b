import Foundation
import Logging
import Passmint
import PassmintBatch
import PassmintStore
import PassmintTestSupport
import Testing

@testable import PassmintServer

/// The serial, token and web service URL are stamped on a pass in one place (``PassStamp``): a pass a batch signs, the
/// same row recorded by lazy issuing, and either of them rendered by the service come out with the same `pass.json`.
@Suite struct PassStampTests {
    static let token = "stamp-token-0123456789"

    /// Rows whose `serialNumber` differs from the serial the pass gets (spaces around it, a number): the stamp decides
    /// what `{{serialNumber}}` shows, for every path alike.
    static let rows = """
        {"serialNumber": "  ST-1  ", "points": 10, "name": "Ann", "authenticationToken": "\(token)"}
        {"serialNumber": 1002, "points": 20, "name": "Bob", "authenticationToken": "\(token)"}

        """

    /// Runs a batch of ``rows`` recording its passes in `store` (lazily with `recordOnly`); returns its output folder.
    func runBatch(recordOnly: Bool, template: PassTemplate, builder: PassBuilder, store: any PassStore) async throws -> URL {
        let work = TestEnvironment.temporaryFolder("stamp-batch")
        let data = work.appendingPathComponent("rows.jsonl")
        try Data(Self.rows.utf8).write(to: data)
        let output = work.appendingPathComponent("out")
        let registration = BatchRegistration(store: store, template: "Test")
        var runner = BatchRunner(
            template: template, builder: builder,
            options: BatchOptions(outputFolder: output.path, webServiceURL: ServiceHarness.publicURL, recordOnly: recordOnly))
        if recordOnly {
            runner.registerMany = { try await registration.recordMany($0) }
        } else {
            runner.register = { try await registration.record($0, state: $1) }
        }
        let result = try await runner.run(try BatchInput(path: data.path))
        #expect(result.failed == 0, "\(result.failures)")
        #expect(recordOnly ? result.recorded == 2 : result.issued == 2)
        return output
    }

    @Test func batchLazyIssuingAndTheRendererStampAlike() async throws {
        let folder = try TestTemplates.write()
        let template = try PassTemplate(folder: folder.path)
        let builder = PassBuilder(identity: try TestTemplates.identity())
        try await withStore(.sqlite) { batchStore in
            try await withStore(.sqlite) { lazyStore in
                let output = try await runBatch(recordOnly: false, template: template, builder: builder, store: batchStore)
                _ = try await runBatch(recordOnly: true, template: template, builder: builder, store: lazyStore)
                for serial in ["ST-1", "1002"] {
                    let archive = try FileIO.read(output.appendingPathComponent("\(serial).pkpass").path, what: "pass")
                    let signed = try #require(try ZipArchive.read(archive, source: serial).first { $0.name == "pass.json" }).bytes
                    let json = try JSONParser.value(signed)
                    #expect(json["serialNumber"] == .string(serial))
                    #expect(json["barcodes"]?.arrayValue?.first?["message"] == .string(serial), "{{serialNumber}} shows the stamped serial")
                    #expect(json["authenticationToken"] == .string(Self.token))
                    #expect(json["webServiceURL"] == .string(ServiceHarness.publicURL))
                    for store in [batchStore, lazyStore] {
                        let renderer = PassRenderer(
                            builder: builder, templates: TemplateCatalog(folder: folder.deletingLastPathComponent().path),
                            images: PassImageLibrary(store: store), webServiceURL: ServiceHarness.publicURL)
                        let stored = try #require(
                            try await store.pass(passTypeIdentifier: "pass.dev.passmint.example", serialNumber: serial))
                        let rendered = try await renderer.prepare(stored).passJSON
                        #expect(
                            rendered == signed, "\(String(decoding: rendered, as: UTF8.self))\n\(String(decoding: signed, as: UTF8.self))")
                    }
                }
            }
        }
    }
}
