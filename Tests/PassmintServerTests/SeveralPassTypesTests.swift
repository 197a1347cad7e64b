import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// One service, two pass types, two certificates: a venue's loyalty card and its event tickets. Each pass is signed by
/// its type's certificate, and each push reaches APNs over the TLS connection of its topic's certificate.
@Suite(.serialized) struct SeveralPassTypesTests {
    static let loyalty = "pass.dev.passmint.loyalty"
    static let tickets = "pass.dev.passmint.tickets"

    /// The repository's Loyalty and EventTicket templates, each given its own pass type.
    static func templates() throws -> String {
        let folder = TestEnvironment.temporaryFolder("templates")
        let source = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")
        for (name, type) in [("Loyalty", loyalty), ("EventTicket", tickets)] {
            let target = folder.appendingPathComponent("\(name).pass")
            try FileManager.default.copyItem(at: source.appendingPathComponent("\(name).pass"), to: target)
            try FileManager.default.copyItem(
                at: source.appendingPathComponent("\(name).json"), to: folder.appendingPathComponent("\(name).json"))
            var json = try JSONParser.value(try FileIO.read(target.appendingPathComponent("pass.json").path, what: "")).objectValue!
            json["passTypeIdentifier"] = .string(type)
            try Data(JSONWriter.data(.object(json))).write(to: target.appendingPathComponent("pass.json"))
        }
        return folder.path
    }

    static func sampleData(_ template: String, serial: String) throws -> JSONObject {
        let path = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/\(template).json").path
        var data = try JSONParser.value(try FileIO.read(path, what: "")).objectValue!
        data["serialNumber"] = .string(serial)
        return data
    }

    @Test(arguments: StoreKind.allCases)
    func issuesUpdatesAndPushesTwoPassTypesWithTwoCertificates(_ kind: StoreKind) async throws {
        let certificates = try TestEnvironment.passTypeFolders(uids: [Self.loyalty, Self.tickets])
        let identities = try CertificatesFolder(path: certificates.path).load(passphrase: nil)
        let apnsServer = try MockAPNsServer(
            clientCA: certificates.appendingPathComponent("root.pem"), folder: TestEnvironment.temporaryFolder("apns"))
        defer { apnsServer.shutdown() }
        let sender = try APNsPushSenders(
            identities: identities, providerToken: nil, endpoint: apnsServer.url, trustRoots: [apnsServer.serverCertificate],
            logger: Logger(label: "test.push"))
        var configuration = ServerConfiguration(publicURL: ServiceHarness.publicURL, identities: identities)
        configuration.templatesFolder = try Self.templates()
        configuration.apiKey = ServiceHarness.apiKey
        let root = try Certificate(contentsOf: certificates.appendingPathComponent("root.pem").path)
        let settings = configuration

        try await withStore(kind) { store in
            let core = ServiceCore(configuration: settings, store: store, push: sender, logger: Logger(label: "test.types"))
            try await buildApplication(core: core, logger: .init(label: "types")).serviceTest(.live) { client in
                let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]
                var devices: [String: String] = [:]  // pass type → push token
                for (template, type, change) in [
                    ("Loyalty", Self.loyalty, "tier\":\"Changed"), ("EventTicket", Self.tickets, "seat\":\"15"),
                ] {
                    let serial = unique(template)
                    let body = JSONWriter.data([
                        "template": .string(template), "data": .object(try Self.sampleData(template, serial: serial)),
                    ])
                    let issued = try await client.execute(
                        uri: "/api/v1/passes", method: .post, headers: bearer, body: ByteBuffer(bytes: body))
                    #expect(issued.status == .created, "\(String(buffer: issued.body))")
                    let answer = try JSONParser.value(Array(issued.body.readableBytesView))
                    #expect(answer["passTypeIdentifier"]?.stringValue == type)
                    let token = try #require(answer["authenticationToken"]?.stringValue)
                    let apple: HTTPFields = [.authorization: "ApplePass \(token)"]

                    // The pass a device downloads is signed by its own type's certificate.
                    try await client.execute(uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple) { response in
                        #expect(response.status == .ok)
                        let report = PassVerifier(root: root).verify(Array(response.body.readableBytesView), source: type)
                        #expect(report.isValid)
                        #expect(report.signature?.signer?.userID == type)
                    }
                    let push = pushToken()
                    devices[type] = push
                    try await client.execute(
                        uri: "/wallet/v1/devices/\(unique("iphone"))/registrations/\(type)/\(serial)", method: .post, headers: apple,
                        body: ByteBuffer(string: #"{"pushToken":"\#(push)"}"#)
                    ) { #expect($0.status == .created) }
                    try await client.execute(
                        uri: "/api/v1/passes/\(type)/\(serial)", method: .patch, headers: bearer,
                        body: ByteBuffer(string: "{\"data\":{\"\(change)\"}}")
                    ) { #expect($0.status == .ok) }
                }
                // Pushes may go out after the answer: wait (bounded) until both arrived, then check who sent them.
                _ = await eventually { apnsServer.received.count >= 2 }
                let received = apnsServer.received
                #expect(received.count == 2)
                for type in [Self.loyalty, Self.tickets] {
                    let push = try #require(received.first { $0.token == devices[type] })
                    #expect(push.topic == type)
                    #expect(push.clientCertificateSubject?.contains(type) == true, "\(push.clientCertificateSubject ?? "")")
                }
            }
        }
        try await sender.shutdown()
    }

    /// A template of a type none of several certificates signs: 503 for the operator, and the certificates folder's
    /// path is not in the answer a caller reads (issue 40).
    @Test func anAnswerNamesNoServerPath() async throws {
        let certificates = try TestEnvironment.passTypeFolders(uids: [Self.loyalty, Self.tickets])
        var configuration = ServerConfiguration(
            publicURL: ServiceHarness.publicURL, identities: try CertificatesFolder(path: certificates.path).load(passphrase: nil))
        let templates = try Self.templates()
        let other = URL(fileURLWithPath: templates).appendingPathComponent("Other.pass")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: templates).appendingPathComponent("Loyalty.pass"), to: other)
        var json = try JSONParser.value(try FileIO.read(other.appendingPathComponent("pass.json").path, what: "")).objectValue ?? [:]
        json["passTypeIdentifier"] = "pass.other.example"
        try Data(JSONWriter.data(.object(json))).write(to: other.appendingPathComponent("pass.json"))
        configuration.templatesFolder = templates
        configuration.apiKey = ServiceHarness.apiKey
        let settings = configuration
        try await withStore(.sqlite) { store in
            let core = ServiceCore(configuration: settings, store: store, push: RecordingPushSender(), logger: Logger(label: "paths"))
            try await buildApplication(core: core, logger: .init(label: "paths")).serviceTest(.router) { client in
                let body = JSONWriter.data(["template": "Other", "data": .object(try Self.sampleData("Loyalty", serial: unique("O")))])
                let answer = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: [.authorization: "Bearer \(ServiceHarness.apiKey)"],
                    body: ByteBuffer(bytes: body))
                let text = WebhookSafetyTests.message(answer.body)  // decoded: JSON writes / as \/
                #expect(answer.status == .serviceUnavailable, "\(text)")
                #expect(!text.contains(certificates.path) && !text.contains(templates), "\(text)")
                #expect(text.contains("pass.other.example"), "\(text)")
            }
        }
    }

    @Test func aTypeWithoutAnIdentityIsRefusedWithoutAConnection() async throws {
        let certificates = try TestEnvironment.passTypeFolders(uids: [Self.loyalty, Self.tickets])
        let identities = try CertificatesFolder(path: certificates.path).load(passphrase: nil)
        let sender = try APNsPushSenders(
            identities: identities, providerToken: nil, endpoint: URL(string: "https://127.0.0.1:9")!, trustRoots: nil,
            logger: Logger(label: "test.push"))
        let outcomes = await sender.push(topic: "pass.dev.passmint.lounge", pushTokens: [pushToken()])
        #expect(outcomes.map(\.reason) == ["NoIdentityForTopic"])
        #expect(sender.sender(for: Self.tickets) !== sender.sender(for: Self.loyalty))
        try await sender.shutdown()
    }
}
