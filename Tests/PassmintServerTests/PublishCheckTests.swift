import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintBatch
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

@testable import PassmintServer

/// A published template is checked against the stored passes before it replaces the old one (issue 32, item 8), is
/// named with or without `.pass` (item 13), and its job runs off the pool that answers devices (item 9).
@Suite struct PublishCheckTests {
    static let type = ServiceHarness.passType
    static let bearer = UpdateJobTests.bearer

    /// A templates folder of its own holding copies of the repository's `Loyalty.pass` and `EventTicket.pass`.
    func templatesFolder() throws -> URL {
        let templates = TestEnvironment.temporaryFolder("publish-check")
        for name in ["Loyalty.pass", "EventTicket.pass"] {
            try FileManager.default.copyItem(
                at: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/\(name)"),
                to: templates.appendingPathComponent(name))
        }
        return templates
    }

    func withService(
        _ templates: URL, _ test: ServiceTestSetup = .router,
        _ body: @Sendable (ServiceCore, any ServiceClient) async throws -> Void
    ) async throws {
        var configuration = try ServiceHarness.configuration()
        configuration.templatesFolder = templates.path
        let settled = configuration
        try await withStore(.sqlite) { store in
            let service = ServiceCore(
                configuration: settled, store: store, push: RecordingPushSender(), logger: Logger(label: "test.publish"))
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(test) { client in
                try await body(service, client)
            }
        }
    }

    func publish(_ client: some ServiceClient, _ name: String, _ body: String = "") async throws -> JSONValue {
        let accepted = try await client.execute(
            uri: "/api/v1/templates/\(name)/publish", method: .post, headers: Self.bearer, body: ByteBuffer(string: body))
        #expect(accepted.status == .accepted, "\(String(buffer: accepted.body))")
        let id = try #require(try JSONParser.value(Array(accepted.body.readableBytesView))["id"]?.stringValue)
        return try await UpdateJobTests().finished(client, id)
    }

    /// The pass.json a device gets for a pass now.
    func served(_ client: some ServiceClient, _ pass: (serial: String, token: String)) async throws -> (HTTPResponse.Status, String) {
        let response = try await client.execute(
            uri: "/wallet/v1/passes/\(Self.type)/\(pass.serial)", method: .get, headers: [.authorization: "ApplePass \(pass.token)"])
        guard response.status == .ok else { return (response.status, String(buffer: response.body)) }
        let entries = try ZipArchive.read(Array(response.body.readableBytesView), source: "served")
        return (response.status, String(decoding: try #require(entries.first { $0.name == "pass.json" }).bytes, as: UTF8.self))
    }

    func write(_ templates: URL, _ change: (String) -> String) throws {
        let passJSON = templates.appendingPathComponent("Loyalty.pass/pass.json")
        let original = try String(
            contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass/pass.json"), encoding: .utf8)
        try change(original).write(to: passJSON, atomically: true, encoding: .utf8)
    }

    @Test func aVersionThatFitsNoPassIsRefusedAndOneThatFitsSomeKeepsTheOthersAtTheirLastGoodVersion() async throws {
        let templates = try templatesFolder()
        try await withService(templates) { service, client in
            let fits = try await UpdateJobTests().issue(client)
            let misfit = try await UpdateJobTests().issue(client)
            _ = try await service.updates.update(
                passTypeIdentifier: Self.type, serialNumber: fits.serial, data: ["lounge": "Gold lounge"], voided: nil)

            // Every pass lacks the new placeholder: refused, and the old version keeps serving.
            try write(templates) {
                $0.replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"").replacingOccurrences(of: "{{tier}}", with: "{{nobodyHasThis}}")
            }
            let refused = try await publish(client, "Loyalty")
            #expect(refused["state"] == "failed" && refused["error"]?.stringValue?.contains("fits none") == true, "\(refused)")
            for pass in [fits, misfit] {
                let (status, json) = try await served(client, pass)
                #expect(status == .ok && json.contains("POINTS") && !json.contains("STARS"), "\(status) \(json.prefix(300))")
            }

            // The new version fits one pass: it gets it; the other stays at the version it had.
            try write(templates) {
                $0.replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"").replacingOccurrences(
                    of: "{{tier}}", with: "{{tier}} {{lounge}}")
            }
            let job = try await publish(client, "Loyalty")
            #expect(job["state"] == "finished" && job["changed"] == 1 && job["kept"] == 1 && job["failed"] == 1, "\(job)")
            #expect(job["note"]?.stringValue?.contains("keep their last good version") == true, "\(job)")
            #expect(job["failures"]?.arrayValue?.first?["serialNumber"]?.stringValue == misfit.serial, "\(job)")
            let new = try await served(client, fits)
            #expect(new.0 == .ok && new.1.contains("STARS") && new.1.contains("Gold lounge"), "\(new)")
            let kept = try await served(client, misfit)
            #expect(kept.0 == .ok && kept.1.contains("POINTS") && !kept.1.contains("STARS"), "\(kept)")
        }
    }

    /// Issue 40, item 1: a template folder holding a link (to a key, to the process's environment), a FIFO or a file
    /// Wallet does not read is refused when it is published, naming the file, without waiting on the FIFO; the old
    /// version keeps serving, and no pass ever carries the linked file. Before, the publish shipped the key in every
    /// pass (and blocked for ever on the FIFO).
    @Test func aTemplateHoldingALinkAFIFOOrAnUnknownFileIsRefusedAtPublish() async throws {
        let templates = try templatesFolder()
        let folder = templates.appendingPathComponent("Loyalty.pass")
        try await withService(templates) { _, client in
            let pass = try await UpdateJobTests().issue(client)
            let hostile: [(name: String, make: () throws -> URL, says: String)] = [
                (
                    "notes.txt", { try HostileTemplates.link("notes.txt", in: folder, to: try HostileTemplates.secretOutside().path) },
                    "symbolic link"
                ),
                ("env.txt", { try HostileTemplates.link("env.txt", in: folder, to: "/proc/self/environ") }, "symbolic link"),
                (
                    "fr.lproj", { try HostileTemplates.link("fr.lproj", in: folder, to: try HostileTemplates.folderOutside().path) },
                    "symbolic link"
                ),
                ("thumbnail.png", { try HostileTemplates.link("thumbnail.png", in: folder, to: "/dev/zero") }, "symbolic link"),
                ("background.png", { try HostileTemplates.fifo("background.png", in: folder) }, "not a regular file"),
                (
                    "notes.txt",
                    {
                        let file = folder.appendingPathComponent("notes.txt")
                        try Data("internal notes".utf8).write(to: file)
                        return file
                    }, "not a file Wallet reads"
                ),
            ]
            for file in hostile {
                let made = try file.make()
                let refused = try await client.execute(
                    uri: "/api/v1/templates/Loyalty/publish", method: .post, headers: Self.bearer, body: ByteBuffer())
                let body = String(buffer: refused.body)
                #expect(refused.status == .unprocessableContent, "\(file.name): \(refused.status) \(body)")
                #expect(body.contains("\(file.name)") && body.contains(file.says), "\(file.name): \(body)")
                #expect(!body.contains(HostileTemplates.secretMarker))
                try FileManager.default.removeItem(at: made)
            }
            let (status, json) = try await served(client, pass)
            #expect(status == .ok && json.contains("POINTS"), "\(status) \(json.prefix(300))")
            let response = try await client.execute(
                uri: "/wallet/v1/passes/\(Self.type)/\(pass.serial)", method: .get, headers: [.authorization: "ApplePass \(pass.token)"])
            let names = try ZipArchive.read(Array(response.body.readableBytesView), source: "served").map(\.name)
            #expect(!names.contains("notes.txt") && !names.contains("env.txt") && !names.contains { $0.hasPrefix("fr.lproj") }, "\(names)")
        }
    }

    /// The version a pass is kept at survives a restart (the template folder holds only the new one by then).
    @Test func aPassKeptAtItsLastGoodVersionIsServedAtItAfterARestart() async throws {
        let templates = try templatesFolder()
        var configuration = try ServiceHarness.configuration()
        configuration.templatesFolder = templates.path
        let settled = configuration
        try await withStore(.sqlite) { store in
            let first = ServiceCore(configuration: settled, store: store, push: RecordingPushSender(), logger: Logger(label: "test.first"))
            let misfit = try await buildApplication(core: first, logger: .init(label: "test")).serviceTest(.router) { client in
                let misfit = try await UpdateJobTests().issue(client)
                _ = try await UpdateJobTests().issue(client, template: "Loyalty")
                let fits = try await UpdateJobTests().issue(client)
                _ = try await first.updates.update(
                    passTypeIdentifier: Self.type, serialNumber: fits.serial, data: ["lounge": "L"], voided: nil)
                try write(templates) {
                    $0.replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"").replacingOccurrences(of: "{{tier}}", with: "{{lounge}}")
                }
                let job = try await publish(client, "Loyalty")
                #expect(job["state"] == "finished" && job["kept"] == 2, "\(job)")
                return misfit
            }
            let second = ServiceCore(
                configuration: settled, store: store, push: RecordingPushSender(), logger: Logger(label: "test.second"))
            try await buildApplication(core: second, logger: .init(label: "test")).serviceTest(.router) { client in
                let kept = try await served(client, misfit)
                #expect(kept.0 == .ok && kept.1.contains("POINTS") && !kept.1.contains("STARS"), "\(kept)")
            }
        }
    }

    /// Issue 41, item 4: a pass records the template version it was made from (by content hash), and renders from that
    /// stored version, never from what the folder holds now. After a restart, passes never served since (one issued
    /// through the API, two imported lazily by `batch --register --no-files`), a folder edited to a version that fits
    /// none of them and a refused publish: every pass is answered 200 at its last good version. Before, the passes not
    /// served since the start were rendered from the edited folder and answered 422. A publish that succeeds moves the
    /// passes to the version it stored; a restart after an edit that was not published moves none.
    @Test(arguments: StoreKind.allCases) func afterARefusedPublishEveryPassIsServedAtItsLastGoodVersion(kind: StoreKind) async throws {
        let templates = try templatesFolder()
        var configuration = try ServiceHarness.configuration()
        configuration.templatesFolder = templates.path
        let settled = configuration
        try await withStore(kind) { store in
            let first = ServiceCore(configuration: settled, store: store, push: RecordingPushSender(), logger: Logger(label: "test.first"))
            let original = TemplateCatalog.Version(try PassTemplate(folder: templates.appendingPathComponent("Loyalty.pass").path))
            let issued = try await buildApplication(core: first, logger: .init(label: "test")).serviceTest(.router) { client in
                try await UpdateJobTests().issue(client)
            }
            var made = [issued]  // the pass issued through the API, then the two imported
            let registration = BatchRegistration(store: store, template: "Loyalty", version: original.template)
            var rows: [BatchRunner.IssuedPass] = []
            for _ in 0..<2 {
                let serial = unique("lazy")
                let token = AuthenticationToken.make()
                var data = try #require(
                    try JSONParser.value(
                        try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path, what: "")
                    ).objectValue)
                data["serialNumber"] = .string(serial)
                rows.append(
                    BatchRunner.IssuedPass(passTypeIdentifier: Self.type, serialNumber: serial, authenticationToken: token, data: data))
                made.append((serial, token))
            }
            _ = try await registration.recordMany(rows)
            let passes = made
            for pass in passes {
                let row = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: pass.serial))
                #expect(row.templateVersion == original.hash, "\(pass.serial) records the version it was made from")
            }
            #expect(try await store.templateVersion(hash: original.hash) == TemplateVersionJSON.content(original.template))

            // Edited to fit no pass, the service restarted (none of the passes served since), the publish refused.
            try write(templates) {
                $0.replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"").replacingOccurrences(of: "{{tier}}", with: "{{none}}")
            }
            let second = ServiceCore(
                configuration: settled, store: store, push: RecordingPushSender(), logger: Logger(label: "test.second"))
            try await buildApplication(core: second, logger: .init(label: "test")).serviceTest(.router) { client in
                for pass in passes {
                    let (status, json) = try await served(client, pass)
                    #expect(status == .ok && json.contains("POINTS") && !json.contains("STARS"), "restart: \(status) \(json.prefix(300))")
                }
                let refused = try await publish(client, "Loyalty")
                #expect(refused["state"] == "failed" && refused["error"]?.stringValue?.contains("fits none") == true, "\(refused)")
                for pass in passes {
                    let (status, json) = try await served(client, pass)
                    #expect(status == .ok && json.contains("POINTS") && !json.contains("STARS"), "refused: \(status) \(json.prefix(300))")
                    let row = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: pass.serial))
                    #expect(row.templateVersion == original.hash)
                }

                // A version that fits: the publish stores it and moves every pass to it.
                try write(templates) { $0.replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"") }
                let job = try await publish(client, "Loyalty")
                #expect(job["state"] == "finished" && job["changed"] == 3, "\(job)")
                let published = TemplateCatalog.Version(try PassTemplate(folder: templates.appendingPathComponent("Loyalty.pass").path))
                for pass in passes {
                    let (status, json) = try await served(client, pass)
                    #expect(status == .ok && json.contains("STARS"), "published: \(status) \(json.prefix(300))")
                    let row = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: pass.serial))
                    #expect(row.templateVersion == published.hash)
                }
            }
        }
    }

    @Test func aTemplateNamedWithPassIsTheSameTemplateAndOneWithoutPassesSaysSo() async throws {
        let templates = try templatesFolder()
        try await withService(templates) { _, client in
            let pass = try await UpdateJobTests().issue(client)
            try write(templates) { $0.replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"") }
            let job = try await publish(client, "Loyalty.pass")
            #expect(job["state"] == "finished" && job["changed"] == 1 && job["template"] == "Loyalty", "\(job)")
            #expect(try await served(client, pass).1.contains("STARS"))

            let empty = try await publish(client, "EventTicket")
            #expect(empty["state"] == "finished" && empty["note"]?.stringValue?.contains("no pass was issued") == true, "\(empty)")
        }
    }

    /// Two pool threads are all Swift's cooperative pool has here: a job's work blocking there (as each per-pass
    /// step below does, until /health answered) would leave nothing to answer /health. The job runs on its own
    /// thread, so /health answers while the first pass's step is held. Counted, not timed: the step is held until the
    /// answer came (or `TestEvents.bound` passed without one, a bound against a hang).
    @Test func healthAnswersWhileAPublishJobWorks() async throws {
        let templates = try templatesFolder()
        let gate = Gate()
        try await withService(templates, .live) { service, client in
            for _ in 0..<6 { _ = try await UpdateJobTests().issue(client) }
            let port = try #require(client.port)
            service.jobs.beforeEachItem.withLock { $0 = { gate.hold() } }
            let health = Thread {
                gate.waitUntilHeld()
                let connection = try? ConnectionLimitsTests.RawConnection(port: port)
                gate.answer = connection.map { Self.blockingGet($0, "/health") } ?? "no connection"
                gate.open()
            }
            health.start()
            let job = try await publish(client, "Loyalty", #"{"data":{"tier":"Gold"}}"#)
            #expect(job["state"] == "finished", "\(job)")
            #expect(gate.answer.hasPrefix("HTTP/1.1 200"), "/health while the job's step was held: \(gate.answer)")
        }
    }

    /// The status line of a GET on a connection, waiting at most `TestEvents.bound` (blocking: run it on a thread of its own).
    static func blockingGet(_ connection: ConnectionLimitsTests.RawConnection, _ path: String) -> String {
        connection.send("GET \(path) HTTP/1.1\r\nHost: passmint\r\n\r\n")
        var received: [UInt8] = []
        var entry = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        while !received.contains(UInt8(ascii: "\n")), poll(&entry, 1, Int32(TestEvents.bound * 1000)) == 1 {
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = recv(connection.descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer.prefix(count)
        }
        return String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }

    /// Holds the job's steps until opened (at most `TestEvents.bound` each: a bound against a hang), and tells when one is held.
    final class Gate: @unchecked Sendable {
        // @unchecked: every field is touched only under `condition`.
        private let condition = NSCondition()
        private var held = false
        private var opened = false
        private var text = ""

        var answer: String {
            get { condition.withLock { text } }
            set { condition.withLock { text = newValue } }
        }

        func hold() {
            condition.lock()
            defer { condition.unlock() }
            held = true
            condition.broadcast()
            let limit = Date().addingTimeInterval(TestEvents.bound)
            while !opened, condition.wait(until: limit) {}
        }

        func waitUntilHeld() {
            condition.lock()
            defer { condition.unlock() }
            let limit = Date().addingTimeInterval(TestEvents.bound)
            while !held, condition.wait(until: limit) {}
        }

        func open() {
            condition.withLock {
                opened = true
                condition.broadcast()
            }
        }
    }
}
