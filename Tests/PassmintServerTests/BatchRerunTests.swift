import Foundation
import Passmint
import PassmintBatch
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// `passmint batch --register --resume` run again after the service changed passes (a PATCH, an update, a template
/// publish): what changed at the service is never rolled back; rows whose own values changed, of passes the service
/// left alone, are applied.
@Suite struct BatchRerunTests {
    static let type = ServiceHarness.passType

    struct Run {
        let template: PassTemplate
        let builder: PassBuilder
        let store: any PassStore
        let output: URL
        let data: URL

        /// Runs the batch over `points` (serial → points) with `--register --resume`, as `passmint batch` wires it.
        func batch(_ points: [(String, Int)]) async throws -> (BatchProgress, [String: BatchResult.Status]) {
            var lines = ""
            for (serial, value) in points {
                var row = try ServiceHarness.loyaltyData(serial: serial)
                row["points"] = .number(JSONNumber(value))
                lines += JSONWriter.string(.object(row), style: .compact) + "\n"
            }
            try Data(lines.utf8).write(to: data)
            let log = try BatchRecordLog(folder: output.path)
            let registration = BatchRegistration(store: store, template: "Loyalty", log: log)
            var runner = BatchRunner(
                template: template, builder: builder,
                options: BatchOptions(
                    outputFolder: output.path, resume: true, reportFormat: .jsonl, webServiceURL: ServiceHarness.publicURL))
            runner.storedState = { try await registration.state(of: $0) }
            runner.register = { try await registration.record($0, state: $1) }
            let result = try await runner.run(try BatchInput(path: data.path))
            log.flush()
            var statuses: [String: BatchResult.Status] = [:]
            let report = try FileIO.read(output.appendingPathComponent("batch-report.jsonl").path, what: "report")
            for line in report.split(separator: 0x0A) {
                let row = try JSONParser.value(line)
                statuses[row["serialNumber"]?.stringValue ?? ""] = BatchResult.Status(rawValue: row["status"]?.stringValue ?? "")
            }
            return (result, statuses)
        }

        func stored(_ serial: String) async throws -> StoredPass {
            try #require(try await store.pass(passTypeIdentifier: BatchRerunTests.type, serialNumber: serial))
        }

        func points(_ serial: String) async throws -> JSONValue? {
            try JSONParser.value(Array(try await stored(serial).dataJSON.utf8))["points"]
        }
    }

    func withRun(_ kind: StoreKind, _ body: @Sendable (Run, ServiceCore) async throws -> Void) async throws {
        let identity = try ServiceHarness.identity()
        let template = try PassTemplate(folder: ServiceHarness.templates + "/Loyalty.pass")
        let work = TestEnvironment.temporaryFolder("batch-rerun")
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let run = Run(
                template: template, builder: PassBuilder(identity: identity), store: store,
                output: work.appendingPathComponent("out"), data: work.appendingPathComponent("members.jsonl"))
            try await body(run, service)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRerunNeverUndoesWhatChangedAtTheService(_ kind: StoreKind) async throws {
        try await withRun(kind) { run, service in
            let (patched, updated, published, untouched) = (unique("P"), unique("U"), unique("R"), unique("N"))
            let november = [(patched, 3636), (updated, 100), (published, 200), (untouched, 300)]
            let first = try await run.batch(november)
            #expect(first.0.issued == 4 && first.0.failed == 0, "\(first.0.failures.lines)")

            // December, at the service: a PATCH, an update, a template publish.
            _ = try await service.updates.update(
                passTypeIdentifier: Self.type, serialNumber: patched, data: ["points": 7219, "tier": "Silber"], voided: nil)
            _ = try await service.updates.update(passTypeIdentifier: Self.type, serialNumber: updated, data: ["points": 150], voided: nil)
            #expect(try await service.updates.republish(PassKey(passTypeIdentifier: Self.type, serialNumber: published)) >= 0)
            let tags = [
                patched: try await run.stored(patched).updateTag, updated: try await run.stored(updated).updateTag,
                published: try await run.stored(published).updateTag, untouched: try await run.stored(untouched).updateTag,
            ]

            // The same list again: nothing at the service moves, and the rows changed there are reported.
            let again = try await run.batch(november)
            #expect(again.1[patched] == .changedAtService && again.1[updated] == .changedAtService, "\(again.1)")
            #expect(again.1[published] == .existing && again.1[untouched] == .existing, "\(again.1)")
            #expect(again.0.changedAtService == 2 && again.0.failed == 0)
            #expect(try await run.points(patched) == 7219)
            #expect(try await run.points(updated) == 150)
            for (serial, tag) in tags {
                #expect(try await run.stored(serial).updateTag == tag, "\(serial): no new version, so no push")
            }

            // A changed list: the passes the service left alone (the publish changed no data) take their row's values;
            // the ones it changed keep the service's.
            let january = [(patched, 1), (updated, 2), (published, 201), (untouched, 301)]
            let third = try await run.batch(january)
            #expect(third.1[patched] == .changedAtService && third.1[updated] == .changedAtService, "\(third.1)")
            #expect(third.1[published] == .issued && third.1[untouched] == .issued, "\(third.1)")
            #expect(try await run.points(patched) == 7219)
            #expect(try await run.points(updated) == 150)
            #expect(try await run.points(published) == 201)
            #expect(try await run.points(untouched) == 301)
            #expect(try await run.stored(untouched).updateTag > tags[untouched]!, "a new version: its devices are told")

            // A list that says what the service says is in step again, and later rows apply.
            _ = try await run.batch([(updated, 150)])
            let caughtUp = try await run.batch([(updated, 151)])
            #expect(caughtUp.1[updated] == .issued, "\(caughtUp.1)")
            #expect(try await run.points(updated) == 151)
        }
    }

    /// A PATCH that commits between the batch's read of the store and its write is kept: the write is compared and
    /// swapped at the tag read.
    @Test(arguments: StoreKind.allCases)
    func aPatchBetweenTheReadAndTheWriteIsKept(_ kind: StoreKind) async throws {
        try await withRun(kind) { run, service in
            let serial = unique("RACE")
            _ = try await run.batch([(serial, 10)])
            let log = try BatchRecordLog(folder: run.output.path)
            let registration = BatchRegistration(store: run.store, template: "Loyalty", log: log)
            var data = try ServiceHarness.loyaltyData(serial: serial)
            data["points"] = 11
            let row = BatchRunner.IssuedPass(
                passTypeIdentifier: Self.type, serialNumber: serial, authenticationToken: try await run.stored(serial).authenticationToken,
                data: data)
            let state = try await registration.state(of: row)
            guard case .recordedByBatch = state else {
                Issue.record("the store holds what the batch recorded: \(state)")
                return
            }
            _ = try await service.updates.update(passTypeIdentifier: Self.type, serialNumber: serial, data: ["points": 500], voided: nil)
            #expect(try await registration.record(row, state: state) == false, "refused: the pass moved on since the read")
            #expect(try await run.points(serial) == 500)
        }
    }
}
