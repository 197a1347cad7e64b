import Foundation
import Logging
import NIOCore
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import PassmintTestSupport

/// A service that issues orders beside passes: the repository's order templates, the development pass chain and an
/// Order Type ID chain (UID ``TestEnvironment/devOrderType``), pushing to a local stand-in for APNs that accepts the
/// order certificate as its TLS client identity.
enum OrderHarness {
    static let type = TestEnvironment.devOrderType
    static let orderTemplates = TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates").path

    /// A test clock at now, made after the certificate chains: a chain made later would not be valid yet at its time.
    static func clock() throws -> ManualClock {
        _ = try TestEnvironment.devChain()
        _ = try TestEnvironment.orderChain()
        return ManualClock()
    }

    static func orderIdentity() throws -> SigningIdentity {
        let chain = try TestEnvironment.orderChain()
        return try SigningIdentity(
            certificatePath: chain.appendingPathComponent("signer.pem").path, keyPath: chain.appendingPathComponent("signer.key").path,
            passphrase: nil, wwdrPath: chain.appendingPathComponent("wwdr.pem").path)
    }

    static func root() throws -> Certificate {
        try Certificate(contentsOf: TestEnvironment.orderChain().appendingPathComponent("root.pem").path)
    }

    /// The stand-in APNs (trusting the order chain's root) and a sender that pushes to it with the order certificate.
    static func apns() throws -> (MockAPNsServer, APNsPushSender) {
        let server = try MockAPNsServer(
            clientCA: TestEnvironment.orderChain().appendingPathComponent("root.pem"), folder: TestEnvironment.temporaryFolder("apns"))
        let sender = try APNsPushSender(
            identity: orderIdentity(), endpoint: server.url, trustRoots: [server.serverCertificate], retryDelay: .milliseconds(20))
        return (server, sender)
    }

    /// A service core on `store` holding both identities, its time `clock`'s.
    static func service(store: any PassStore, push: any PushSender, clock: ManualClock, linkSecret: String? = nil) throws -> ServiceCore {
        let identities = try SigningIdentities([ServiceHarness.identity(), orderIdentity()], source: "the test identities")
        var configuration = ServerConfiguration(publicURL: ServiceHarness.publicURL, identities: identities)
        configuration.templatesFolder = ServiceHarness.templates
        configuration.orderTemplatesFolder = orderTemplates
        configuration.apiKey = ServiceHarness.apiKey
        configuration.jobsFolder = TestEnvironment.temporaryFolder("jobs").path
        configuration.linkSecret = linkSecret
        return ServiceCore(
            configuration: configuration, store: store, push: push, logger: ringingLogger(label: "test.orders"), clock: clock.today)
    }

    /// The Shipment sample data with a fresh order identifier, without the keys the service writes.
    static func shipmentData(id: String) throws -> JSONObject {
        let path = TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates/Shipment.json").path
        var data = try JSONParser.value(try FileIO.read(path, what: "")).objectValue!
        data["orderIdentifier"] = .string(id)
        data["authenticationToken"] = nil
        data["updatedAt"] = nil
        return data
    }

    static func issueBody(id: String) throws -> ByteBuffer {
        ByteBuffer(bytes: JSONWriter.data(["template": "Shipment", "data": .object(try shipmentData(id: id))], style: .compact))
    }

    /// `order.json` of a signed order.
    static func orderJSON(_ bytes: [UInt8]) throws -> JSONValue {
        let entries = try ZipArchive.read(bytes, source: "order")
        guard let entry = entries.first(where: { $0.name == "order.json" }) else { throw CocoaError(.fileReadCorruptFile) }
        return try JSONParser.value(entry.bytes)
    }
}
