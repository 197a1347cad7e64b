import Foundation
import Logging
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// Changes racing for one pass, on one node (SQLite) and on two nodes of one PostgreSQL database: PATCHes of
/// different keys (signed, or only checked as bulk lines are), voids, a template republished, and the lines of a
/// bulk-update job and a template publish job running beside them. None is lost, each takes exactly one tag, a void is
/// never undone, and each device is owed exactly one push.
@Suite struct ConcurrentChangeTests {
    /// One change of the race, and what it must leave in the pass.
    enum Change: Sendable {
        case patch(key: String, value: Int, signs: Bool)
        case void(key: String, value: Int)
        case publish
    }

    static let changes: [Change] =
        (0..<14).map { Change.patch(key: "note\($0)", value: 1000 + $0, signs: $0 % 2 == 0) }
        + (0..<3).map { Change.void(key: "voidNote\($0)", value: 2000 + $0) } + [.publish]

    /// The lines of the bulk-update job, and the template publish job: one change each.
    static let jobLines = (0..<2).map { (key: "jobNote\($0)", value: 3000 + $0) }
    static let jobChanges = jobLines.count + 1

    /// Queues the bulk-update job (its upload made durable first) and the template publish job on `node`.
    static func queueJobs(_ node: ServiceCore, type: String, serial: String) async throws -> [String] {
        let upload = try node.jobs.newUpload()
        var text = ""
        for line in jobLines {
            let object: JSONValue = [
                "passTypeIdentifier": .string(type), "serialNumber": .string(serial), "data": [line.key: .number(JSONNumber(line.value))],
            ]
            text += JSONWriter.string(object, style: .compact) + "\n"
        }
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Void in try upload.write(raw) }
        return [try await node.jobs.submit(upload).id, try await node.jobs.publish(template: "Loyalty", data: nil).id]
    }

    /// Runs every change of ``changes`` at once, spread over `nodes`; the tags the changes committed.
    static func race(_ nodes: [ServiceCore], type: String, serial: String) async throws -> [Int64] {
        try await withThrowingTaskGroup(of: Int64?.self) { group in
            for (index, change) in changes.enumerated() {
                let node = nodes[index % nodes.count]
                group.addTask {
                    switch change {
                    case .patch(let key, let value, let signs):
                        let result = try await node.updates.update(
                            passTypeIdentifier: type, serialNumber: serial, data: [key: .number(JSONNumber(value))], voided: nil,
                            signs: signs)
                        #expect(result.changed == true)
                        return result.pass.updateTag
                    case .void(let key, let value):
                        let result = try await node.updates.update(
                            passTypeIdentifier: type, serialNumber: serial, data: [key: .number(JSONNumber(value))], voided: true)
                        #expect(result.changed == true)
                        return result.pass.updateTag
                    case .publish:
                        #expect(try await node.updates.republish(PassKey(passTypeIdentifier: type, serialNumber: serial)) == 2)
                        return nil
                    }
                }
            }
            return try await group.reduce(into: [Int64]()) { if let tag = $1 { $0.append(tag) } }
        }
    }

    /// Issues a pass through the first node, registers three devices (two share a token), races the changes, and
    /// checks what is stored.
    static func check(_ nodes: [ServiceCore], _ store: any PassStore) async throws {
        let issued = try await nodes[0].issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("RACE")))
        let (type, serial) = (issued.pass.passTypeIdentifier, issued.pass.serialNumber)
        let shared = pushToken()
        for token in [shared, shared, pushToken()] {
            _ = try await nodes[0].registrations.register(
                device: unique("dev"), pushToken: token, passTypeIdentifier: type, serialNumber: serial)
        }

        let jobs = try await queueJobs(nodes[0], type: type, serial: serial)
        nodes[0].storeReady.open()
        let tags = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await nodes[0].jobs.run() }  // the jobs run while the changes race
            let tags = try await race(nodes, type: type, serial: serial)
            let done = await eventually { jobs.allSatisfy { nodes[0].jobs.job($0)?.state == .finished } }
            group.cancelAll()
            #expect(done, "the jobs finished")
            return tags
        }
        for id in jobs {
            let job = try #require(nodes[0].jobs.job(id))
            #expect(job.changed == 1 || job.changed == jobLines.count, "every line changed the pass")
            #expect(job.failed == 0 && job.unchanged == 0)
        }

        let stored = try #require(try await store.pass(passTypeIdentifier: type, serialNumber: serial))
        let data = try #require(try JSONParser.value(Array(stored.dataJSON.utf8)).objectValue)
        for change in changes {
            switch change {
            case .patch(let key, let value, _), .void(let key, let value):
                #expect(data[key] == .number(JSONNumber(value)), "the change of \(key) is kept")
            case .publish: break
            }
        }
        for line in jobLines { #expect(data[line.key] == .number(JSONNumber(line.value)), "the job line of \(line.key) is kept") }
        #expect(data["points"] == issued.data["points"], "what nobody changed stays")
        #expect(stored.voided, "no change undid a void")
        #expect(Set(tags).count == tags.count, "every change has a version of its own")
        let events = try await store.events(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4e9), limit: 10_000)
        let updates = events.filter { $0.kind == .updated && $0.serialNumber == serial }
        #expect(updates.count == changes.count + jobChanges, "one version per change, and none else")
        #expect(tags.allSatisfy { $0 > issued.pass.updateTag && $0 <= stored.updateTag })
        #expect(try await store.outboxStatus(.applePush).depth == 2, "one owed push per device token")
        let states = try await store.pushStates(passTypeIdentifier: type, serialNumber: serial)
        #expect(states.count == 3 && states.allSatisfy(\.pending))
    }

    @Test func changesRacingOnOneSQLiteNodeAreAllKept() async throws {
        try await withStore(.sqlite) { store in
            try await Self.check([try ServiceHarness.service(store: store, push: RecordingPushSender())], store)
        }
    }

    @Test func changesRacingOnTwoPostgresNodesAreAllKept() async throws {
        // Creating the database waits for psql: on a thread of its own, off the cooperative pool (blocking one of its
        // two threads there once held up every test waiting for PostgreSQL until their connect timeout ran out).
        let url = try await offPool { Result { try StoreKind.postgres.databaseURL() } }.get()
        try await openPassStore(url: url, logger: Logger(label: "test.node-a")).whileRunning { storeA in
            try await openPassStore(url: url, logger: Logger(label: "test.node-b")).whileRunning { storeB in
                let nodes = [
                    try ServiceHarness.service(store: storeA, push: RecordingPushSender()),
                    try ServiceHarness.service(store: storeB, push: RecordingPushSender()),
                ]
                try await Self.check(nodes, storeA)
            }
        }
    }
}
