import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

@testable import PassmintServer

/// What one job may hold in memory (issue 32, item 6) and how a resumed job counts (item 12).
@Suite struct JobBoundsTests {
    static let type = ServiceHarness.passType
    static let bearer = UpdateJobTests.bearer

    final class Recorded: Sendable {
        let values = Mutex<[Int64]>([])
    }

    func line(_ serial: String, _ change: String) -> String {
        #"{"passTypeIdentifier":"\#(Self.type)","serialNumber":"\#(serial)",\#(change)}"#
    }

    func withService(
        _ configuration: ServerConfiguration? = nil,
        _ body: @Sendable (ServiceCore, any PassStore, any ServiceClient) async throws -> Void
    ) async throws {
        let settled = try configuration ?? ServiceHarness.configuration()
        try await withStore(.sqlite) { store in
            let service = ServiceCore(
                configuration: settled, store: store, push: RecordingPushSender(), logger: Logger(label: "test.bounds"))
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                try await body(service, store, client)
            }
        }
    }

    /// The tests' configuration, changed as given.
    static func configured(_ change: (inout ServerConfiguration) throws -> Void) throws -> ServerConfiguration {
        var configuration = try ServiceHarness.configuration()
        try change(&configuration)
        return configuration
    }

    func run(_ client: some ServiceClient, _ lines: [String]) async throws -> JSONValue {
        let accepted = try await client.execute(
            uri: "/api/v1/updates", method: .post, headers: Self.bearer, body: ByteBuffer(string: lines.joined(separator: "\n")))
        #expect(accepted.status == .accepted, "\(String(buffer: accepted.body))")
        let id = try #require(try JSONParser.value(Array(accepted.body.readableBytesView))["id"]?.stringValue)
        return try await UpdateJobTests().finished(client, id)
    }

    @Test func aValueLongerThanTheCapFailsItsLineNamingTheKey() async throws {
        try await withService { service, store, client in
            let (serial, _) = try await UpdateJobTests().issue(client)
            let long = String(repeating: "M", count: 70_000)
            let job = try await run(client, [line(serial, #""data":{"memberName":"\#(long)","points":5}"#)])
            #expect(job["failed"] == 1 && job["changed"] == 0, "\(job)")
            let reason = job["failures"]?.arrayValue?.first?["reason"]?.stringValue ?? ""
            #expect(
                reason.contains("\"data.memberName\" is 70000 bytes") && reason.contains("at most") && !reason.contains("--"), "\(reason)")
            let stored = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial))
            #expect(!stored.dataJSON.contains(long))
            _ = service
        }
    }

    @Test func aChunkIsBoundedByBytesAsWellAsLines() async throws {
        let offsets = Recorded()
        let configured = try Self.configured { $0.jobLimits.chunkBytes = 1 }
        try await withService(configured) { service, _, client in
            var serials: [String] = []
            for _ in 0..<3 { serials.append(try await UpdateJobTests().issue(client).serial) }
            service.jobs.beforeEachItem.withLock {
                $0 = { offsets.values.withLock { $0.append(contentsOf: service.jobs.live.withLock { $0.values.map(\.offset) }) } }
            }
            let job = try await run(client, serials.map { line($0, #""data":{"points":3}"#) })
            #expect(job["changed"] == 3, "\(job)")
        }
        let seen = offsets.values.withLock { $0 }
        #expect(seen.count == 3 && Set(seen).count == 3, "each line a chunk of its own, saved before the next: \(seen)")
    }

    @Test func imagesAreDecodedOnlyForPassesThatExistAndTheirCacheIsBoundedByBytes() async throws {
        let png = Data(TestPNG.make(width: 120, height: 120)).base64EncodedString()
        try await withService { service, _, client in
            let job = try await run(client, [line("NO-SUCH-PASS", #""images":{"thumbnail@2x":"\#(png)"}"#)])
            #expect(job["failed"] == 1, "\(job)")
            #expect(service.updates.renderer.images.cachedBytes == 0, "no pass, no image decoded")
        }
        try await withStore(.sqlite) { store in
            let library = PassImageLibrary(store: store, cacheBytes: 3 * 1024)
            for shade in 0..<40 {
                let image = TestPNG.make(width: 40, height: 40, rgba: (UInt8(shade), 0x10, 0x20, 0xFF))
                _ = try await library.decode(["thumbnail": .string(Data(image).base64EncodedString())])
                #expect(library.cachedBytes <= 3 * 1024)
            }
        }
    }

    /// An upload's writes (and its fsync) run on a thread of their own: a slow or full disk never holds a thread of
    /// the pool that answers devices.
    @Test func anUploadIsWrittenOffThePoolThatAnswersDevices() async throws {
        final class Threads: Sendable { let names = Mutex<Set<String>>([]) }
        let threads = Threads()
        try await withService { service, _, client in
            let (serial, _) = try await UpdateJobTests().issue(client)
            service.jobs.beforeEachUploadWrite.withLock {
                $0 = {
                    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                    threads.names.withLock { _ = $0.insert(name.trimmingCharacters(in: .newlines)) }
                }
            }
            let job = try await run(client, [line(serial, #""data":{"points":7}"#)])
            #expect(job["changed"] == 1, "\(job)")
        }
        #expect(threads.names.withLock { $0 } == ["passmint-files"])
    }

    /// A service killed after it applied lines 3 and 4 but before it saved their chunk applies them again when it
    /// starts; they count as changed, as they did the first time (they were counted unchanged).
    @Test func aJobResumedAfterAKillCountsAsIfItHadNeverStopped() async throws {
        try await withStore(.sqlite) { store in
            let configuration = try ServiceHarness.configuration()
            let folder = URL(fileURLWithPath: configuration.jobsFolder)
            let service = ServiceCore(configuration: configuration, store: store, push: RecordingPushSender(), logger: Logger(label: "t"))
            var serials: [String] = []
            for _ in 0..<4 {
                let data = try ServiceHarness.loyaltyData(serial: unique("K"))
                serials.append(try await service.issuing.issue(template: "Loyalty", data: data).pass.serialNumber)
            }
            let lines = serials.map { line($0, #""data":{"points":4242}"#) }
            let id = String(repeating: "e5", count: 16)
            try (lines.joined(separator: "\n") + "\n").write(
                to: folder.appendingPathComponent("\(id).jsonl"), atomically: true, encoding: .utf8)
            let chunkStarted = Date()
            for serial in serials[2...] {  // what the killed service had applied of the chunk in flight
                _ = try await service.updates.update(
                    passTypeIdentifier: Self.type, serialNumber: serial, data: ["points": 4242], voided: nil, signs: false)
            }
            var stopped = UpdateJob(id: id, kind: .updates, createdAt: Date().addingTimeInterval(-60))  // by the stopped service
            stopped.done = 2
            stopped.changed = 2
            stopped.offset = Int64(lines[0].utf8.count + lines[1].utf8.count + 2)
            stopped.chunkStartedAt = chunkStarted
            try JSONWriter.string(.object(stopped.json)).write(
                to: folder.appendingPathComponent("\(id).json"), atomically: true, encoding: .utf8)

            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                #expect(await eventually { await service.jobs.status(id) != nil }, "moved from the jobs folder into the database")
                let job = try await UpdateJobTests().finished(client, id)
                #expect(job["state"] == "finished" && job["changed"] == 4 && job["unchanged"] == 0, "\(job)")
            }
        }
    }
}
