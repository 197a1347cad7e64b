import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOSSL
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

/// A simulated iPhone against the live service, with pushes going over HTTP/2 + TLS to a local server that answers
/// like APNs and checks the client certificate.
@Suite(.serialized) struct EndToEndTests {
    static func apns() throws -> (MockAPNsServer, APNsPushSender) {
        let chain = try TestEnvironment.devChain()
        let server = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: TestEnvironment.temporaryFolder("apns"))
        let sender = try APNsPushSender(
            identity: ServiceHarness.identity(), endpoint: server.url, trustRoots: [server.serverCertificate],
            retryDelay: .milliseconds(20))
        return (server, sender)
    }

    @Test(arguments: StoreKind.allCases)
    func deviceRegistersPollsDownloadsIsPushedAndUnregisters(_ kind: StoreKind) async throws {
        let (apnsServer, sender) = try Self.apns()
        defer { apnsServer.shutdown() }
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: sender)
            try await buildApplication(core: service, logger: .init(label: "e2e")).serviceTest(.live) { client in
                let type = ServiceHarness.passType
                let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]
                // The issuer mints a ticket.
                let serial = unique("E")
                let issued = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: bearer, body: try ServiceHarness.issueBody(serial: serial))
                #expect(issued.status == .created)
                let token = try #require(try JSONParser.value(Array(issued.body.readableBytesView))["authenticationToken"]?.stringValue)
                let device = unique("iphone")
                let push = pushToken()
                let apple: HTTPFields = [.authorization: "ApplePass \(token)"]

                // The device registers, polls (200 then 204), downloads (200 then 304).
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)/\(serial)", method: .post, headers: apple,
                    body: ByteBuffer(string: #"{"pushToken":"\#(push)"}"#)
                ) { #expect($0.status == .created) }
                var tag = ""
                try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)", method: .get) { response in
                    #expect(response.status == .ok)
                    tag = try #require(try JSONParser.value(Array(response.body.readableBytesView))["lastUpdated"]?.stringValue)
                }
                try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)?passesUpdatedSince=\(tag)", method: .get)
                {
                    #expect($0.status == .noContent)
                }
                var lastModified = ""
                try await client.execute(uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple) { response in
                    #expect(response.status == .ok)
                    lastModified = try #require(response.headers[.lastModified])
                }
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple + [.ifModifiedSince: lastModified]
                ) {
                    #expect($0.status == .notModified)
                }

                // The issuer changes the points: APNs receives a push for this device's token, with the topic and {}.
                try await client.execute(
                    uri: "/api/v1/passes/\(type)/\(serial)", method: .patch, headers: bearer,
                    body: ByteBuffer(string: #"{"data":{"points":4242}}"#)
                ) { response in
                    #expect(response.status == .ok)
                    let json = try JSONParser.value(Array(response.body.readableBytesView))
                    #expect(json["push"]?["queued"] == 1, "the answer comes with the commit; the push follows")
                    #expect(json["registrations"] == 1)
                }
                #expect(await eventually { apnsServer.received.count == 1 })
                let received = apnsServer.received
                #expect(received.count == 1)
                #expect(received.first?.token == push)
                #expect(received.first?.topic == type)
                #expect(received.first?.body == "{}")
                #expect(received.first?.clientCertificateSubject?.contains(type) == true, "the pass certificate is the TLS client identity")

                // The device polls, gets the serial, downloads the new pass: it verifies and carries the new value.
                try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)?passesUpdatedSince=\(tag)", method: .get)
                { response in
                    #expect(response.status == .ok)
                    let json = try JSONParser.value(Array(response.body.readableBytesView))
                    #expect(json["serialNumbers"] == [.string(serial)])
                    #expect(json["lastUpdated"]?.stringValue != tag)
                }
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple + [.ifModifiedSince: lastModified]
                ) { response in
                    #expect(response.status == .ok)
                    let bytes = Array(response.body.readableBytesView)
                    let root = try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path)
                    #expect(PassVerifier(root: root).verify(bytes, source: "updated").isValid)
                    let entries = try ZipArchive.read(bytes, source: "updated")
                    let json = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
                    #expect(json["storeCard"]?["primaryFields"]?.arrayValue?.first?["value"] == 4242)
                    #expect(json["authenticationToken"]?.stringValue == token, "the token never changes")
                }

                // The metadata shows the registration and the last push, once the queue has settled it (APNs may hold the
                // push before the queue's round writes what APNs answered).
                try await service.pushQueue.drain()
                try await client.execute(uri: "/api/v1/passes/\(type)/\(serial)", method: .get, headers: bearer) { response in
                    let json = try JSONParser.value(Array(response.body.readableBytesView))
                    #expect(json["registrations"] == 1)
                    #expect(json["pushes"]?["delivered"] == 1 && json["pushes"]?["pending"] == 0, "\(json)")
                }

                // It unregisters and gets no further pushes.
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)/\(serial)", method: .delete, headers: apple
                ) {
                    #expect($0.status == .ok)
                }
                try await client.execute(
                    uri: "/api/v1/passes/\(type)/\(serial)", method: .patch, headers: bearer, body: ByteBuffer(string: #"{"voided":true}"#)
                ) {
                    #expect($0.status == .ok)
                }
                #expect(apnsServer.received.count == 1)
            }
        }
        try await sender.shutdown()
    }

    @Test func apnsAnswersRemoveBadTokensAndRetryThrottling() async throws {
        let (apnsServer, sender) = try Self.apns()
        defer { apnsServer.shutdown() }
        let gone = pushToken()
        let bad = pushToken()
        let busy = pushToken()
        let fine = pushToken()
        apnsServer.setBehavior(.init([(410, "Unregistered")]), for: gone)
        apnsServer.setBehavior(.init([(400, "BadDeviceToken")]), for: bad)
        apnsServer.setBehavior(.init([(429, "TooManyRequests"), (503, "ServiceUnavailable"), (200, nil)]), for: busy)
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: sender)
            let issued = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("R")))
            for token in [gone, bad, busy, fine] {
                _ = try await store.register(
                    deviceLibraryIdentifier: unique("dev"), pushToken: token, passTypeIdentifier: issued.pass.passTypeIdentifier,
                    serialNumber: issued.pass.serialNumber)
            }
            let updated = try await service.updates.update(
                passTypeIdentifier: issued.pass.passTypeIdentifier, serialNumber: issued.pass.serialNumber, data: ["points": 1], voided: nil
            )
            #expect(updated.queuedPushes == 4)
            try await service.pushQueue.drain()
            let statistics = service.pushQueue.statistics
            #expect(statistics.unregistered == 2 && statistics.delivered == 2)
            #expect(statistics.attempts == 6, "the busy token took three attempts")
            let left = try await store.registrations(
                passTypeIdentifier: issued.pass.passTypeIdentifier, serialNumber: issued.pass.serialNumber)
            #expect(Set(left.map(\.pushToken)) == [busy, fine])
        }
        try await sender.shutdown()
    }

    @Test func pushesGoOutConcurrentlyWithinTheBound() async throws {
        let chain = try TestEnvironment.devChain()
        let server = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: TestEnvironment.temporaryFolder("apns"))
        defer { server.shutdown() }
        server.setResponseDelay(.milliseconds(150))
        let sender = try APNsPushSender(
            identity: ServiceHarness.identity(), endpoint: server.url, trustRoots: [server.serverCertificate], concurrency: 4)
        let tokens = (0..<24).map { _ in pushToken() }
        let outcomes = await sender.push(topic: ServiceHarness.passType, pushTokens: tokens)
        #expect(Set(outcomes.map(\.pushToken)) == Set(tokens))
        #expect(outcomes.allSatisfy { $0.result == .delivered })
        #expect(server.received.count == 24)
        #expect((2...4).contains(server.maxInFlight), "at most 4 pushes in flight at once, and more than one: \(server.maxInFlight)")
        try await sender.shutdown()
    }

    @Test func retriesBackOffExponentially() async throws {
        let chain = try TestEnvironment.devChain()
        let server = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: TestEnvironment.temporaryFolder("apns"))
        defer { server.shutdown() }
        let waits = Mutex<[Duration]>([])
        let sender = try APNsPushSender(
            identity: ServiceHarness.identity(), endpoint: server.url, trustRoots: [server.serverCertificate],
            maxAttempts: 4, retryDelay: .milliseconds(100), sleep: { wait in waits.withLock { $0.append(wait) } })
        let busy = pushToken()
        server.setBehavior(
            .init([(503, "ServiceUnavailable"), (429, "TooManyRequests"), (500, "InternalServerError"), (200, nil)]), for: busy)
        let outcome = try #require(await sender.push(topic: ServiceHarness.passType, pushTokens: [busy]).first)
        #expect(outcome.result == .delivered)
        #expect(outcome.attempts == 4)
        #expect(server.received.count == 4)
        // It waited 100, 200 and 400 ms between the attempts (recorded, not spent).
        #expect(waits.withLock { $0 } == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        // After the last attempt it gives up with the last status.
        let hopeless = pushToken()
        server.setBehavior(.init([(503, "ServiceUnavailable")]), for: hopeless)
        let failed = try #require(await sender.push(topic: ServiceHarness.passType, pushTokens: [hopeless]).first)
        #expect(failed.result == .failed)
        #expect(failed.status == 503)
        #expect(failed.attempts == 4)
        #expect(waits.withLock { $0 }.count == 6, "three waits more before giving up")
        try await sender.shutdown()
    }
}

func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var fields = lhs
    fields.append(contentsOf: rhs)
    return fields
}
