import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import Testing

/// The service as `passmint serve` assembles it, wired from a configuration value, without launching a process.
@Suite struct AssemblyTests {
    @Test func openPassStoreChoosesTheBackendByTheURL() throws {
        let logger = Logger(label: "test.assembly")
        let path = TestEnvironment.temporaryFolder("open").appendingPathComponent("p.sqlite").path
        let sqlite = try openPassStore(url: path, logger: logger)
        #expect(sqlite.store is SQLitePassStore && sqlite.services.isEmpty && sqlite.changeFeed == nil && sqlite.name == path)
        for url in ["postgres://passmint:secret@127.0.0.1:1/passmint", "postgresql://passmint:secret@127.0.0.1:1/passmint"] {
            let postgres = try openPassStore(url: url, logger: logger)  // nothing connects before its client runs
            #expect(postgres.store is PostgresPassStore && postgres.services.count == 1 && postgres.changeFeed != nil, "\(url)")
            #expect(
                postgres.name == "postgres 127.0.0.1:1 sslmode=prefer" && !postgres.name.contains("secret"),
                "a URL may hold a password: logs name the backend, host, port and TLS mode only")
        }
        #expect(throws: PassStoreError.self) { try openPassStore(url: "/no/such/folder/p.sqlite", logger: logger) }
        #expect(throws: PassStoreError.self) { try openPassStore(url: "postgres://[bad", logger: logger) }
    }

    @Test func theAssembledServiceIssuesRegistersUpdatesAndPushesThroughAPNs() async throws {
        let folder = TestEnvironment.temporaryFolder("assembly")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        var configuration = try ServiceHarness.configuration()
        let database = folder.appendingPathComponent("assembly.sqlite").path
        configuration.database = .sqlite(path: database)
        configuration.apns.endpoint = apns.url
        configuration.apns.trustRootsFile = folder.appendingPathComponent("apns-server.pem").path

        // Runs as `serve` runs it: migrations before the server starts, graceful shutdown closing the APNs client.
        let serial = unique("A")
        let device = pushToken()
        try await buildApplication(configuration: configuration).serviceTest(.live) { client in
            let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]
            let body = try ServiceHarness.issueBody(serial: serial)
            let issued = try await client.execute(uri: "/api/v1/passes", method: .post, headers: bearer, body: body)
            #expect(issued.status == .created)
            let token = try #require(try JSONParser.value(Array(issued.body.readableBytesView))["authenticationToken"]?.stringValue)
            let registration = "/wallet/v1/devices/\(unique("dev"))/registrations/\(ServiceHarness.passType)/\(serial)"
            try await client.execute(
                uri: registration, method: .post, headers: [.authorization: "ApplePass \(token)"],
                body: ByteBuffer(string: #"{"pushToken":"\#(device)"}"#)
            ) { #expect($0.status == .created) }
            try await client.execute(
                uri: "/api/v1/passes/\(ServiceHarness.passType)/\(serial)", method: .patch, headers: bearer,
                body: ByteBuffer(string: #"{"data":{"points":5}}"#)
            ) { response in
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["push"]?["queued"] == 1, "\(String(buffer: response.body))")
            }
            #expect(await eventually { apns.received.count == 1 }, "the push queue delivers it in the background")
            try await client.execute(uri: "/api/v1/passes", method: .post, body: try ServiceHarness.issueBody(serial: unique("A"))) {
                #expect($0.status == .unauthorized, "the API key guards the issuing API")
            }
        }
        #expect(apns.received.map(\.token) == [device])
        // The configured database holds the pass and the push's outcome, and owes nothing.
        let store = try SQLitePassStore(path: database)
        let states = try await store.pushStates(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial)
        #expect(states.count == 1 && !states[0].pending)
        #expect(try JSONParser.value(Array((states.first?.lastResultJSON ?? "").utf8))["result"] == "delivered")
        #expect(try await store.outboxStatus(.applePush).depth == 0)
    }
}
