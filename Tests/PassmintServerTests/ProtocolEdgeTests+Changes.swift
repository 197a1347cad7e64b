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

/// The protocol's edges when passes change: HTTP-dates, updates that change nothing, push tokens, orders that fail as a
/// whole, another process writing the SQLite file.
extension ProtocolEdgeTests {
    @Test func lastModifiedIsAnHTTPDateAndIfModifiedSinceIsCompared() async throws {
        let clock = ManualClock()
        try await withService(clock: clock) { _, store, client in
            let (serial, token) = try await issue(client)
            let uri = "/wallet/v1/passes/\(Self.type)/\(serial)"
            let apple: HTTPFields = [.authorization: "ApplePass \(token)"]
            let first = try await client.execute(uri: uri, method: .get, headers: apple)
            let lastModified = try #require(first.headers[.lastModified])
            let stored = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial))
            #expect(lastModified == Self.httpDate(stored.updatedAt))
            #expect(
                lastModified.wholeMatch(
                    of: /(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT/)
                    != nil)
            #expect(stored.updatedAt == clock.date, "stamped with the store's clock")

            func status(_ ifModifiedSince: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: uri, method: .get, headers: apple + [.ifModifiedSince: ifModifiedSince]).status
            }
            #expect(try await status(lastModified) == .notModified)
            #expect(try await status(Self.httpDate(stored.updatedAt.addingTimeInterval(-1))) == .ok, "older than the change")
            #expect(try await status("yesterday") == .ok, "not an HTTP-date: ignored")
            #expect(try await status(Self.httpDate(clock.date.addingTimeInterval(86_400))) == .ok, "in the future: ignored")
            // Not older than the change, in other texts than Last-Modified: parsed as dates, 304. The obsolete forms
            // RFC 9110 asks recipients to read: RFC 850 and asctime().
            let now = clock.date
            #expect(try await status(Self.httpDate(now, format: "EEEE, dd-MMM-yy HH:mm:ss 'GMT'")) == .notModified)
            #expect(try await status(Self.httpDate(now, format: "EEE MMM dd HH:mm:ss yyyy")) == .notModified)
            let older = Self.httpDate(stored.updatedAt.addingTimeInterval(-1), format: "EEE MMM dd HH:mm:ss yyyy")
            #expect(try await status(older) == .ok, "asctime, older than the change")
        }
    }

    @Test func updatesThatChangeNothingPushNothingAndVoidingShows() async throws {
        let push = RecordingPushSender()
        try await withService(push: push) { service, store, client in
            let (serial, token) = try await issue(client)
            #expect(try await register(client, device: unique("dev"), serial: serial, token: token, pushToken: pushToken()) == .created)
            let uri = "/api/v1/passes/\(Self.type)/\(serial)"
            let before = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial))
            let points = try #require(try JSONParser.value(Array(before.dataJSON.utf8))["points"])
            let same = JSONWriter.data(["data": ["points": points]], style: .compact)
            try await client.execute(uri: uri, method: .patch, headers: Self.bearer, body: ByteBuffer(bytes: same)) { response in
                #expect(response.status == .ok)
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["changed"] == false)
                #expect(json["updateTag"]?.stringValue == String(before.updateTag))
            }
            try await client.execute(uri: uri, method: .patch, headers: Self.bearer, body: ByteBuffer(string: #"{"voided":false}"#)) {
                response in
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["changed"] == false)
            }
            try await service.pushQueue.drain()
            #expect(push.pushes.withLock { $0.count } == 0, "nothing changed: nothing pushed")

            try await client.execute(uri: uri, method: .patch, headers: Self.bearer, body: ByteBuffer(string: #"{"voided":true}"#)) {
                response in
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["changed"] == true)
                #expect(json["voided"] == true)
                #expect(json["push"]?["queued"] == 1)
            }
            try await service.pushQueue.drain()
            #expect(push.pushes.withLock { $0.count } == 1)
            let pass = try await client.execute(
                uri: "/wallet/v1/passes/\(Self.type)/\(serial)", method: .get, headers: [.authorization: "ApplePass \(token)"])
            let entries = try ZipArchive.read(Array(pass.body.readableBytesView), source: "voided")
            #expect(try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)["voided"] == true)
            try await client.execute(uri: "/api/v1/stats", method: .get, headers: Self.bearer) { response in
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["pushes"]?["updates"] == 1, "one round")
                #expect(json["pushes"]?["delivered"] == 1)
                #expect(json["pushes"]?["devices"] == 1)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func registrationsKeepPushTokensAndDevicesGoWithTheirLast(_ kind: StoreKind) async throws {
        try await withService(kind) { _, store, client in
            let (first, firstToken) = try await issue(client)
            let (second, secondToken) = try await issue(client)
            let device = unique("dev")
            let oldPush = pushToken()
            let newPush = pushToken()
            #expect(try await register(client, device: device, serial: first, token: firstToken, pushToken: oldPush) == .created)
            #expect(try await register(client, device: device, serial: second, token: secondToken, pushToken: oldPush) == .created)
            #expect(try await register(client, device: device, serial: first, token: firstToken, pushToken: newPush) == .ok)
            let inspection = try #require(store as? any PassStoreInspection)
            #expect(try await inspection.pushToken(deviceLibraryIdentifier: device) == newPush, "a new push token is stored")

            func unregister(_ serial: String, _ token: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(Self.type)/\(serial)", method: .delete,
                    headers: [.authorization: "ApplePass \(token)"]
                ).status
            }
            #expect(try await unregister(first, firstToken) == .ok)
            #expect(try await inspection.pushToken(deviceLibraryIdentifier: device) == newPush, "one registration left: the device stays")
            #expect(try await unregister(second, secondToken) == .ok)
            #expect(try await inspection.pushToken(deviceLibraryIdentifier: device) == nil, "no registration left: the device is gone")
            #expect(try await unregister(second, secondToken) == .ok, "unregistering again is harmless")
        }
    }

    @Test func trailingSlashOfWebServiceURLStillRoutes() async throws {
        // Apple's samples end webServiceURL with "/", so devices may call …/wallet//v1/….
        try await withService { _, _, client in
            let (serial, token) = try await issue(client)
            let device = unique("dev")
            try await client.execute(
                uri: "/wallet//v1/devices/\(device)/registrations/\(Self.type)/\(serial)", method: .post,
                headers: [.authorization: "ApplePass \(token)"], body: ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#)
            ) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/wallet//v1/devices/\(device)/registrations/\(Self.type)", method: .get) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anOrderIsIssuedWholeOrNotAtAll(_ kind: StoreKind) async throws {
        try await withService(kind) { _, store, client in
            func order(_ passes: [JSONObject]) -> ByteBuffer {
                ByteBuffer(
                    bytes: JSONWriter.data(
                        ["passes": .array(passes.map { ["template": "Loyalty", "data": .object($0)] })], style: .compact))
            }
            func stored(_ serial: String) async throws -> Bool {
                try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial) != nil
            }

            // The third pass lacks a placeholder: nothing is stored.
            let serials = (0..<3).map { _ in unique("O") }
            var broken = try serials.map { try ServiceHarness.loyaltyData(serial: $0) }
            broken[2]["memberName"] = nil
            try await client.execute(uri: "/api/v1/bundles", method: .post, headers: Self.bearer, body: order(broken)) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("passes[2]"), "\(String(buffer: response.body))")
            }
            for serial in serials { #expect(try await stored(serial) == false) }

            // The second serial exists already: the first one stored is taken back.
            let (existing, _) = try await issue(client)
            let fresh = unique("O")
            try await client.execute(
                uri: "/api/v1/bundles", method: .post, headers: Self.bearer,
                body: order([try ServiceHarness.loyaltyData(serial: fresh), try ServiceHarness.loyaltyData(serial: existing)])
            ) { response in
                #expect(response.status == .conflict)
                #expect(String(buffer: response.body).contains("passes[1]"))
            }
            #expect(try await stored(fresh) == false, "the first pass of the failed order is taken back")
            #expect(try await stored(existing), "the pass that existed is untouched")

            // The same serial twice in one order.
            let twice = unique("O")
            try await client.execute(
                uri: "/api/v1/bundles", method: .post, headers: Self.bearer,
                body: order([try ServiceHarness.loyaltyData(serial: twice), try ServiceHarness.loyaltyData(serial: twice)])
            ) {
                #expect($0.status == .badRequest)
            }
            #expect(try await stored(twice) == false)
        }
    }

    @Test func anotherProcessWritingTheSQLiteFileIsSeenByTheService() async throws {
        // `passmint batch --register` writes into the file of a running service: the service's cached answers follow.
        let path = TestEnvironment.temporaryFolder("shared-sqlite").appendingPathComponent("passmint.sqlite").path
        let serving = try SQLitePassStore(path: path)
        try await serving.migrate()
        let service = try ServiceHarness.service(store: serving, push: RecordingPushSender())
        let other = try SQLitePassStore(path: path)  // its own connections, as another process has
        let device = unique("dev")
        let reads = service.deviceReads
        #expect(try await reads.updatedSerials(device: device, passTypeIdentifier: Self.type, since: nil).serialNumbers.isEmpty)
        let generation = serving.changeGeneration

        let issued = try await other.insert(
            StoredPass(
                passTypeIdentifier: Self.type, serialNumber: unique("X"), authenticationToken: "token-0123456789abcdef",
                template: "Loyalty", dataJSON: "{}"))
        _ = try await other.register(
            deviceLibraryIdentifier: device, pushToken: pushToken(), passTypeIdentifier: Self.type, serialNumber: issued.serialNumber)
        // The service looks for other processes' commits on its own: wait until it saw this one.
        #expect(await TestEvents.within { await serving.changed(since: generation) }, "the other connection's commit moved the generation")
        let seen = try await service.deviceReads.updatedSerials(device: device, passTypeIdentifier: Self.type, since: nil).serialNumbers
        #expect(seen == [issued.serialNumber])
    }
}
