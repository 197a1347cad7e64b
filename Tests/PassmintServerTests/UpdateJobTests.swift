import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

/// Bulk changes: a JSON Lines upload and a republished template, applied as jobs in the background, every bad line
/// reported, pushes coalesced per device and pass type.
@Suite struct UpdateJobTests {
    static let type = ServiceHarness.passType
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]

    func issue(_ client: some ServiceClient, template: String = "Loyalty") async throws -> (serial: String, token: String) {
        let serial = unique(template)
        var data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/\(template).json").path, what: "")
        ).objectValue!
        data["serialNumber"] = .string(serial)
        let response = try await client.execute(
            uri: "/api/v1/passes", method: .post, headers: Self.bearer,
            body: ByteBuffer(bytes: JSONWriter.data(["template": .string(template), "data": .object(data)], style: .compact)))
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return (serial, try #require(try JSONParser.value(Array(response.body.readableBytesView))["authenticationToken"]?.stringValue))
    }

    func register(_ client: some ServiceClient, serial: String, token: String, pushToken: String) async throws {
        try await client.execute(
            uri: "/wallet/v1/devices/\(unique("dev"))/registrations/\(Self.type)/\(serial)", method: .post,
            headers: [.authorization: "ApplePass \(token)"], body: ByteBuffer(string: #"{"pushToken":"\#(pushToken)"}"#)
        ) { #expect($0.status == .created) }
    }

    /// Waits for the job to finish (checking again each time the service logs, as it does when a job ends); its final
    /// state.
    func finished(_ client: some ServiceClient, _ id: String) async throws -> JSONValue {
        func state() async throws -> JSONValue {
            let response = try await client.execute(uri: "/api/v1/jobs/\(id)", method: .get, headers: Self.bearer)
            return try JSONParser.value(Array(response.body.readableBytesView))
        }
        let ended = try await eventually { try await state()["state"]?.stringValue != "running" }
        return ended ? try await state() : .null
    }

    @Test(arguments: StoreKind.allCases)
    func anUploadChangesEveryGoodLineReportsTheBadOnesAndCoalescesPushes(_ kind: StoreKind) async throws {
        let push = RecordingPushSender()
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: push)
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let passes = [try await issue(client), try await issue(client), try await issue(client)]
                let phone = pushToken()
                let tablet = pushToken()
                try await register(client, serial: passes[0].serial, token: passes[0].token, pushToken: phone)
                try await register(client, serial: passes[1].serial, token: passes[1].token, pushToken: phone)
                try await register(client, serial: passes[2].serial, token: passes[2].token, pushToken: tablet)
                func line(_ serial: String, _ change: String) -> String {
                    #"{"passTypeIdentifier":"\#(Self.type)","serialNumber":"\#(serial)",\#(change)}"#
                }
                let body = [
                    line(passes[0].serial, #""data":{"points":10}"#),
                    line(passes[1].serial, #""data":{"points":20}"#),
                    "{not json",
                    "",
                    line("NO-SUCH-PASS", #""data":{"points":1}"#),
                    line(passes[2].serial, #""voided":true"#),
                    line(passes[0].serial, #""data":{"points":11}"#),  // the same pass again: applied after the first
                    line(passes[1].serial, #""data":{"points":20}"#),  // changes nothing
                    line(passes[2].serial, #""data":"points""#),
                    line(passes[1].serial, #""images":{"thumbnail@2x":"not base64!"}"#),
                ].joined(separator: "\n")
                let accepted = try await client.execute(
                    uri: "/api/v1/updates", method: .post, headers: Self.bearer, body: ByteBuffer(string: body))
                #expect(accepted.status == .accepted, "\(String(buffer: accepted.body))")
                let id = try #require(try JSONParser.value(Array(accepted.body.readableBytesView))["id"]?.stringValue)

                let job = try await finished(client, id)
                #expect(job["state"] == "finished", "\(job)")
                #expect(job["done"] == 10 && job["changed"] == 4 && job["unchanged"] == 1 && job["failed"] == 4, "\(job)")
                let failures = try #require(job["failures"]?.arrayValue)
                #expect(failures.compactMap { $0["line"]?.numberValue?.intValue } == [3, 5, 9, 10], "\(failures)")
                #expect(failures[1]["reason"]?.stringValue?.contains("no pass") == true, "\(failures)")
                #expect(failures[2]["reason"]?.stringValue?.contains("\"data\" must be an object") == true, "\(failures)")

                let points = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: passes[0].serial))
                #expect(try JSONParser.value(Array(points.dataJSON.utf8))["points"] == 11, "lines of one pass applied in order")
                #expect(try await store.pass(passTypeIdentifier: Self.type, serialNumber: passes[2].serial)?.voided == true)

                // Both devices are told; the phone's three changes (its passes changed while the pusher ran) make at
                // most three pushes. Coalescing itself: PushOutboxStoreTests.
                try await service.pushQueue.drain()
                let pushed = push.pushes.withLock { $0.flatMap(\.tokens) }
                #expect(Set(pushed) == [phone, tablet] && pushed.filter { $0 == tablet }.count == 1 && pushed.count <= 4, "\(pushed)")

                let report = try await client.execute(uri: "/api/v1/jobs/\(id)/failures", method: .get, headers: Self.bearer)
                #expect(String(buffer: report.body).split(separator: "\n").count == 4)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func publishingATemplateGivesEveryPassOfItANewVersionAndPushesItsDevices(_ kind: StoreKind) async throws {
        let push = RecordingPushSender()
        let templates = TestEnvironment.temporaryFolder("publish")
        for name in ["Loyalty.pass", "EventTicket.pass"] {
            try FileManager.default.copyItem(
                at: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/\(name)"),
                to: templates.appendingPathComponent(name))
        }
        try await withStore(kind) { store in
            var configuration = try ServiceHarness.configuration()
            configuration.templatesFolder = templates.path
            let service = ServiceCore(configuration: configuration, store: store, push: push, logger: Logger(label: "test.publish"))
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let loyalty = [try await issue(client), try await issue(client)]
                let ticket = try await issue(client, template: "EventTicket")
                let device = pushToken()
                try await register(client, serial: loyalty[0].serial, token: loyalty[0].token, pushToken: device)
                try await register(client, serial: ticket.serial, token: ticket.token, pushToken: pushToken())
                try await service.pushQueue.drain()
                push.pushes.withLock { $0.removeAll() }
                let before = try await store.pass(passTypeIdentifier: Self.type, serialNumber: ticket.serial)?.updateTag

                // A broken new version is refused and nothing changes.
                let passJSON = templates.appendingPathComponent("Loyalty.pass/pass.json")
                let original = try String(contentsOf: passJSON, encoding: .utf8)
                try "{ broken".write(to: passJSON, atomically: true, encoding: .utf8)
                try await client.execute(uri: "/api/v1/templates/Loyalty/publish", method: .post, headers: Self.bearer) {
                    #expect($0.status == .unprocessableContent, "\(String(buffer: $0.body))")
                }
                // The new version: a label changes, and every member gets an offer.
                try original.replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"").write(
                    to: passJSON, atomically: true, encoding: .utf8)
                let accepted = try await client.execute(
                    uri: "/api/v1/templates/Loyalty/publish", method: .post, headers: Self.bearer,
                    body: ByteBuffer(string: #"{"data":{"tier":"Platinum"}}"#))
                #expect(accepted.status == .accepted, "\(String(buffer: accepted.body))")
                let id = try #require(try JSONParser.value(Array(accepted.body.readableBytesView))["id"]?.stringValue)
                let job = try await finished(client, id)
                #expect(job["state"] == "finished" && job["changed"] == 2 && job["failed"] == 0, "\(job)")

                #expect(
                    try await store.pass(passTypeIdentifier: Self.type, serialNumber: ticket.serial)?.updateTag == before,
                    "other templates untouched")
                let download = try await client.execute(
                    uri: "/wallet/v1/passes/\(Self.type)/\(loyalty[0].serial)", method: .get,
                    headers: [.authorization: "ApplePass \(loyalty[0].token)"])
                let entries = try ZipArchive.read(Array(download.body.readableBytesView), source: "republished")
                let json = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
                #expect(JSONWriter.string(json).contains("STARS") && JSONWriter.string(json).contains("Platinum"), "the new version")
                try await service.pushQueue.drain()
                #expect(push.pushes.withLock { $0.flatMap(\.tokens) } == [device])
            }
        }
    }

    /// A publish asked to purge unused data keeps asking after a restart or a takeover (the job's saved state).
    @Test func aPurgingPublishKeepsItsPurgeInItsSavedState() throws {
        var job = UpdateJob(id: "j1", kind: .template)
        job.purgeUnused = true
        #expect(job.json["purgeUnused"] == true)
        #expect(UpdateJob(json: job.json)?.purgeUnused == true)
        #expect(UpdateJob(json: UpdateJob(id: "j2", kind: .template).json)?.purgeUnused == false)
    }

    /// A service of an earlier version stopped in the middle of a job (its state saved in the jobs folder after the first
    /// two lines) goes on at the third line when it starts again: the job is moved into the database.
    @Test func aRestartedServiceGoesOnWhereTheJobStood() async throws {
        let push = RecordingPushSender()
        try await withStore(.sqlite) { store in
            let configuration = try ServiceHarness.configuration()
            let folder = URL(fileURLWithPath: configuration.jobsFolder)
            let service = ServiceCore(configuration: configuration, store: store, push: push, logger: Logger(label: "test.resume"))
            var serials: [String] = []
            for _ in 0..<4 {
                serials.append(
                    try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("R"))).pass
                        .serialNumber)
            }
            let lines = serials.map { #"{"passTypeIdentifier":"\#(Self.type)","serialNumber":"\#($0)","data":{"points":777}}"# }
            let upload = lines.joined(separator: "\n") + "\n"
            let id = String(repeating: "ab", count: 16)
            try upload.write(to: folder.appendingPathComponent("\(id).jsonl"), atomically: true, encoding: .utf8)
            var stopped = UpdateJob(id: id, kind: .updates, createdAt: Date().addingTimeInterval(-60))  // by the stopped service
            stopped.done = 2
            stopped.changed = 2
            stopped.offset = Int64(lines[0].utf8.count + lines[1].utf8.count + 2)
            try JSONWriter.string(.object(stopped.json)).write(
                to: folder.appendingPathComponent("\(id).json"), atomically: true, encoding: .utf8)

            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                #expect(await eventually { await service.jobs.status(id) != nil }, "moved from the jobs folder into the database")
                let job = try await finished(client, id)
                #expect(job["state"] == "finished" && job["done"] == 4 && job["changed"] == 4, "\(job)")
            }
            for (index, serial) in serials.enumerated() {
                let data = try JSONParser.value(
                    Array(try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial)).dataJSON.utf8))
                #expect((data["points"] == 777) == (index >= 2), "line \(index + 1): \(data)")
            }
        }
    }
}
