import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Passmint
import PassmintPush
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Synchronization

/// Records pushes instead of sending them (for tests of the HTTP protocol; the APNs client has its own tests).
final class RecordingPushSender: PushSender {
    let pushes = Mutex<[(topic: String, tokens: [String])]>([])
    func push(topic: String, pushTokens: [String]) async -> [PushOutcome] {
        pushes.withLock { $0.append((topic, pushTokens)) }
        TestEvents.ring()
        return pushTokens.map { PushOutcome(pushToken: $0, result: .delivered, status: 200, reason: nil, attempts: 1) }
    }
}

/// Waits until `condition` holds, for work the service does in the background (the push queue, jobs), checking it
/// again at each event (`TestEvents`: a stand-in received something, a service under test logged a line); true when
/// it did. Its bound keeps a broken test from hanging; it is no timing requirement.
func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
    try await TestEvents.wait(until: condition)
}

enum ServiceHarness {
    static let apiKey = "test-api-key-0123456789"
    static let publicURL = "https://passes.example.test/wallet"
    static let passType = "pass.dev.passmint.example"
    static let templates = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path

    static func identity() throws -> SigningIdentity {
        let chain = try TestEnvironment.devChain()
        return try SigningIdentity(
            certificatePath: chain.appendingPathComponent("signer.pem").path, keyPath: chain.appendingPathComponent("signer.key").path,
            passphrase: nil, wwdrPath: chain.appendingPathComponent("wwdr.pem").path)
    }

    /// The tests' configuration: the repository's templates, the development chain, an API key.
    static func configuration(maxBodySize: Int = 64 * 1024, logLimit: Int = 1000) throws -> ServerConfiguration {
        var configuration = ServerConfiguration(publicURL: publicURL, identity: try identity())
        configuration.templatesFolder = templates
        configuration.apiKey = apiKey
        configuration.maxBodySize = maxBodySize
        configuration.deviceLogLimit = logLimit
        configuration.jobsFolder = TestEnvironment.temporaryFolder("jobs").path
        return configuration
    }

    /// A service core on `store`, pushing through `push`; with `linkSecret`, it makes public links.
    static func service(
        store: any PassStore, push: any PushSender, maxBodySize: Int = 64 * 1024, logLimit: Int = 1000,
        clock: @escaping @Sendable () -> Date = { Date() }, linkSecret: String? = nil
    ) throws -> ServiceCore {
        var configuration = try configuration(maxBodySize: maxBodySize, logLimit: logLimit)
        configuration.linkSecret = linkSecret
        return ServiceCore(
            configuration: configuration, store: store, push: push, logger: ringingLogger(label: "test.service"), clock: clock)
    }

    /// Loyalty sample data with a fresh serial.
    static func loyaltyData(serial: String) throws -> JSONObject {
        let path = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path
        var data = try JSONParser.value(try FileIO.read(path, what: "")).objectValue!
        data["serialNumber"] = .string(serial)
        return data
    }

    static func issueBody(serial: String) throws -> ByteBuffer {
        ByteBuffer(bytes: JSONWriter.data(["template": "Loyalty", "data": .object(try loyaltyData(serial: serial))], style: .compact))
    }
}
