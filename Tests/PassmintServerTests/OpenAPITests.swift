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
import Testing

/// The issuing API answers as its OpenAPI document says: a real service (SQLite, passes and orders, links, webhooks)
/// is sent every operation the document describes, with answers that succeed and refusals, and
/// `scripts/check-openapi.sh` checks the served document (openapi-spec-validator) and every answer against it
/// (status, content type, required headers, body schema). The same check fails on a document one schema of which is
/// broken. `scripts/test.sh` runs the check on every answer of the whole suite as well.
@Suite struct OpenAPITests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
    static let json: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]
    static let script = TestEnvironment.repositoryRoot.appendingPathComponent("scripts/check-openapi.sh").path

    /// Runs the checker off the cooperative pool.
    static func check(_ arguments: [String]) async throws -> TestEnvironment.ProcessResult {
        try await offPool { Result { try TestEnvironment.run(script, arguments) } }.get()
    }

    static func body(_ value: JSONValue) -> ByteBuffer { ByteBuffer(bytes: JSONWriter.data(value, style: .compact)) }

    static func object(_ response: ServiceResponse) throws -> JSONValue { try JSONParser.value(Array(response.body.readableBytesView)) }

    @Test func everyOperationAnswersAsTheServedDocumentSays() async throws {
        let folder = TestEnvironment.temporaryFolder("openapi")
        let log = APIExchangeLog(path: folder.appendingPathComponent("exchanges.jsonl").path)
        let document = folder.appendingPathComponent("openapi.json")
        let clock = try OrderHarness.clock()
        try await APIExchangeLog.$current.withValue(log) {
            // Passes, jobs, templates, statistics and webhooks on a service of one pass type (with no order templates:
            // its 404), orders on a service that issues them.
            try await withStore(.sqlite, clock: clock) { store in
                let core = try WebhookDeliveryTests.core(store, clock)
                try await buildApplication(core: core, logger: .init(label: "openapi")).serviceTest(.live) { client in
                    let served = try await client.execute(uri: "/api/v1/openapi.json", method: .get)
                    #expect(served.status == .ok, "no API key needed")
                    #expect(served.headers[.contentType] == "application/json")
                    try Data(served.body.readableBytesView).write(to: document)
                    try await Self.passes(client)
                    try await Self.jobsAndTemplates(client)
                    try await Self.statsAndWebhooks(client)
                    let orders = try await client.execute(
                        uri: "/api/v1/orders", method: .post, headers: Self.json, body: try OrderHarness.issueBody(id: unique("order")))
                    #expect(orders.status == .notFound, "no order templates")
                    // Payments (PaymentTests pays on a service with merchant keys): here, none is held.
                    let payment = try await client.execute(
                        uri: "/api/v1/payments", method: .post, headers: Self.json,
                        body: Self.body(["token": ["paymentData": [:]], "template": "Loyalty"]))
                    #expect(payment.status == .notImplemented)
                }
            }
            try await withStore(.sqlite, clock: clock) { store in
                let core = try OrderHarness.service(
                    store: store, push: RecordingPushSender(), clock: clock, linkSecret: "openapi-tests-link-secret")
                try await buildApplication(core: core, logger: .init(label: "openapi")).serviceTest(.live) { client in
                    try await Self.orders(client)
                }
            }
        }
        let valid = try await Self.check(["document", document.path])
        #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")
        let answers = try await Self.check(["answers", document.path, log.path, "--every-operation"])
        #expect(answers.status == 0, "\(answers.stdout)\(answers.stderr)")

        // The same answers against a document whose pass metadata requires a member no answer has: the check fails
        // and names it.
        var broken = try JSONParser.value(try FileIO.read(document.path, what: "the served document")).objectValue!
        var components = broken["components"]!.objectValue!
        var schemas = components["schemas"]!.objectValue!
        var metadata = schemas["PassMetadata"]!.objectValue!
        metadata["required"] = .array(metadata["required"]!.arrayValue! + ["shoeSize"])
        schemas["PassMetadata"] = .object(metadata)
        components["schemas"] = .object(schemas)
        broken["components"] = .object(components)
        let brokenPath = folder.appendingPathComponent("broken.json")
        try Data(JSONWriter.data(.object(broken), style: .compact)).write(to: brokenPath)
        let refused = try await Self.check(["answers", brokenPath.path, log.path])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "GET /api/v1/passes/{passTypeIdentifier}/{serialNumber} 200: at (the body): 'shoeSize' is a required property"))
    }

    /// Passes: issue (JSON, bytes, taken, unknown template, bad data, too large, a reused key), bundles, read, change
    /// (If-Match, stale, malformed), preview, logs.
    static func passes(_ client: some ServiceClient) async throws {
        let type = ServiceHarness.passType
        let serial = unique("oa")
        #expect(try await client.execute(uri: "/api/v1/templates", method: .get).status == .unauthorized)
        #expect(try await client.execute(uri: "/api/v1/templates", method: .get, headers: bearer).status == .ok)
        var keyed = json
        keyed[HTTPField.Name("Idempotency-Key")!] = "openapi-\(serial)"
        let issued = try await client.execute(
            uri: "/api/v1/passes", method: .post, headers: keyed, body: try ServiceHarness.issueBody(serial: serial))
        #expect(issued.status == .created)
        #expect(issued.headers[.location] == "/api/v1/passes/\(type)/\(serial)")
        let reused = try await client.execute(
            uri: "/api/v1/passes", method: .post, headers: keyed, body: try ServiceHarness.issueBody(serial: unique("oa")))
        #expect(reused.status == .unprocessableContent)
        let bytes = try await client.execute(
            uri: "/api/v1/passes", method: .post, headers: bearer, body: try ServiceHarness.issueBody(serial: unique("oa")))
        #expect(bytes.status == .created && bytes.headers[.contentType] == BuiltPass.mimeType)
        #expect(
            try await client.execute(
                uri: "/api/v1/passes", method: .post, headers: json, body: try ServiceHarness.issueBody(serial: serial)
            ).status == .conflict)
        let unknown = body(["template": "NoSuchTemplate", "data": [:]])
        #expect(try await client.execute(uri: "/api/v1/passes", method: .post, headers: json, body: unknown).status == .badRequest)
        var bad = try ServiceHarness.loyaltyData(serial: unique("oa"))
        bad["points"] = "many"
        let invalid = try await client.execute(
            uri: "/api/v1/passes", method: .post, headers: json, body: body(["template": "Loyalty", "data": .object(bad)]))
        #expect(invalid.status == .unprocessableContent)
        let large = ByteBuffer(repeating: UInt8(ascii: " "), count: 70 * 1024)
        let tooLarge = try await client.execute(uri: "/api/v1/passes", method: .post, headers: json, body: large)
        #expect(tooLarge.status == .contentTooLarge && (try? object(tooLarge)["error"]?["code"]) == "too-large")

        let bundle = body(["passes": [["template": "Loyalty", "data": .object(try ServiceHarness.loyaltyData(serial: unique("oa")))]]])
        #expect(try await client.execute(uri: "/api/v1/bundles", method: .post, headers: json, body: bundle).status == .created)
        let bundleBytes = body(["passes": [["template": "Loyalty", "data": .object(try ServiceHarness.loyaltyData(serial: unique("oa")))]]])
        #expect(try await client.execute(uri: "/api/v1/bundles", method: .post, headers: bearer, body: bundleBytes).status == .created)
        #expect(
            try await client.execute(uri: "/api/v1/bundles", method: .post, headers: json, body: body(["passes": []])).status == .badRequest
        )

        let uri = "/api/v1/passes/\(type)/\(serial)"
        let read = try await client.execute(uri: uri, method: .get, headers: bearer)
        #expect(read.status == .ok)
        let tag = read.headers[.eTag] ?? ""
        #expect(!tag.isEmpty)
        #expect(try await client.execute(uri: uri, method: .head, headers: bearer).status == .ok)
        let missing = try await client.execute(uri: "/api/v1/passes/\(type)/\(unique("none"))", method: .get, headers: bearer)
        #expect(missing.status == .notFound && (try? object(missing)["error"]?["code"]) == "not-found")
        #expect(try await client.execute(uri: "/api/v1/passes/\(type)/bad!serial", method: .get, headers: bearer).status == .badRequest)
        var ifMatch = bearer
        ifMatch[.ifMatch] = tag
        let change = body(["data": ["points": 99]])
        #expect(try await client.execute(uri: uri, method: .patch, headers: ifMatch, body: change).status == .ok)
        #expect(try await client.execute(uri: uri, method: .patch, headers: ifMatch, body: change).status == .preconditionFailed)
        ifMatch[.ifMatch] = "1234"
        #expect(try await client.execute(uri: uri, method: .patch, headers: ifMatch, body: change).status == .badRequest)
        #expect(
            try await client.execute(uri: uri, method: .patch, headers: bearer, body: body(["data": ["points": "many"]])).status
                == .unprocessableContent)
        #expect(
            try await client.execute(uri: "/api/v1/passes/\(type)/\(unique("none"))", method: .patch, headers: bearer, body: change).status
                == .notFound)

        #expect(try await client.execute(uri: uri + "/preview?side=back", method: .get, headers: bearer).status == .ok)
        #expect(try await client.execute(uri: uri + "/preview?side=sideways", method: .get, headers: bearer).status == .badRequest)
        #expect(try await client.execute(uri: "/api/v1/logs", method: .get, headers: bearer).status == .ok)

        // Voiding, un-voiding (the flag), then the erasure and what it leaves: a tombstone, 410s, a refused re-issue.
        #expect(try await client.execute(uri: uri, method: .patch, headers: bearer, body: body(["voided": true])).status == .ok)
        #expect(try await client.execute(uri: uri, method: .patch, headers: bearer, body: body(["voided": false])).status == .conflict)
        #expect(
            try await client.execute(uri: uri + "?unvoid=true", method: .patch, headers: bearer, body: body(["voided": false])).status
                == .ok)
        ifMatch[.ifMatch] = tag
        #expect(try await client.execute(uri: uri, method: .delete, headers: ifMatch).status == .preconditionFailed)
        #expect(try await client.execute(uri: uri, method: .delete, headers: bearer).status == .ok)
        #expect(try await client.execute(uri: uri, method: .delete, headers: bearer).status == .ok)
        #expect(try await client.execute(uri: uri, method: .patch, headers: bearer, body: change).status == .gone)
        #expect(
            try await client.execute(uri: "/api/v1/passes/\(type)/\(unique("none"))", method: .delete, headers: bearer).status == .notFound)
        let again = body(["template": "Loyalty", "data": .object(try ServiceHarness.loyaltyData(serial: serial))])
        #expect(try await client.execute(uri: "/api/v1/passes", method: .post, headers: json, body: again).status == .conflict)
    }

    /// Orders: issue (JSON, bytes, unknown template), read, change (If-Match, stale), an unknown order.
    static func orders(_ client: some ServiceClient) async throws {
        let id = unique("order")
        let issued = try await client.execute(uri: "/api/v1/orders", method: .post, headers: json, body: try OrderHarness.issueBody(id: id))
        #expect(issued.status == .created)
        #expect(
            try await client.execute(
                uri: "/api/v1/orders", method: .post, headers: bearer, body: try OrderHarness.issueBody(id: unique("order"))
            ).status == .created)
        let unknown = body(["template": "NoSuchOrder", "data": [:]])
        #expect(try await client.execute(uri: "/api/v1/orders", method: .post, headers: json, body: unknown).status.code >= 400)
        let uri = "/api/v1/orders/\(OrderHarness.type)/\(id)"
        let read = try await client.execute(uri: uri, method: .get, headers: bearer)
        #expect(read.status == .ok)
        var ifMatch = bearer
        let tag: String = try #require(read.headers[.eTag])
        ifMatch[.ifMatch] = tag
        let change = body(["data": ["status": "completed"]])
        #expect(try await client.execute(uri: uri, method: .patch, headers: ifMatch, body: change).status == .ok)
        #expect(try await client.execute(uri: uri, method: .patch, headers: ifMatch, body: change).status == .preconditionFailed)
        #expect(try await client.execute(uri: uri, method: .patch, headers: bearer, body: body(["nothing": true])).status == .badRequest)
        #expect(
            try await client.execute(uri: "/api/v1/orders/\(OrderHarness.type)/\(unique("none"))", method: .get, headers: bearer).status
                == .notFound)
    }

    /// Uploads and publishing start jobs, read with their failures; templates and their previews.
    static func jobsAndTemplates(_ client: some ServiceClient) async throws {
        let line = #"{"passTypeIdentifier":"\#(ServiceHarness.passType)","serialNumber":"\#(unique("absent"))","data":{"points":1}}"#
        let upload = try await client.execute(uri: "/api/v1/updates", method: .post, headers: bearer, body: ByteBuffer(string: line + "\n"))
        #expect(upload.status == .accepted)
        let job = try #require(try object(upload)["id"]?.stringValue)
        #expect(upload.headers[.location] == "/api/v1/jobs/\(job)")
        #expect(try await client.execute(uri: "/api/v1/updates", method: .post, headers: bearer, body: ByteBuffer()).status == .badRequest)
        #expect(try await client.execute(uri: "/api/v1/jobs", method: .get, headers: bearer).status == .ok)
        #expect(try await client.execute(uri: "/api/v1/jobs/\(job)", method: .get, headers: bearer).status == .ok)
        #expect(try await client.execute(uri: "/api/v1/jobs/\(job)/failures", method: .get, headers: bearer).status == .ok)
        #expect(try await client.execute(uri: "/api/v1/jobs/no-such-job", method: .get, headers: bearer).status == .notFound)
        #expect(try await client.execute(uri: "/api/v1/jobs/no-such-job/failures", method: .get, headers: bearer).status == .notFound)

        let publish = "/api/v1/templates/Loyalty/publish"
        #expect(
            try await client.execute(uri: publish, method: .post, headers: bearer, body: ByteBuffer(string: "[1]")).status == .badRequest)
        #expect(
            try await client.execute(uri: publish, method: .post, headers: bearer, body: body(["data": ["offer": "ok"]])).status
                == .accepted)

        #expect(try await client.execute(uri: "/api/v1/templates/Loyalty/preview", method: .get, headers: bearer).status == .ok)
        #expect(
            try await client.execute(uri: "/api/v1/templates/NoSuchTemplate/preview", method: .get, headers: bearer).status == .notFound)
        let data = body(.object(try ServiceHarness.loyaltyData(serial: unique("oa"))))
        #expect(
            try await client.execute(uri: "/api/v1/templates/Loyalty/preview", method: .post, headers: bearer, body: data).status == .ok)
        #expect(
            try await client.execute(
                uri: "/api/v1/templates/Loyalty/preview", method: .post, headers: bearer, body: ByteBuffer(string: "no")
            ).status == .badRequest)
    }

    /// Statistics (JSON, CSV, a bad interval), a dashboard link, and a webhook's life: added, listed, its deliveries
    /// listed and one replayed while still owed, removed.
    static func statsAndWebhooks(_ client: some ServiceClient) async throws {
        #expect(try await client.execute(uri: "/api/v1/stats", method: .get, headers: bearer).status == .ok)
        var csv = bearer
        csv[.accept] = "text/csv"
        #expect(try await client.execute(uri: "/api/v1/stats?interval=hour", method: .get, headers: csv).status == .ok)
        #expect(try await client.execute(uri: "/api/v1/stats?interval=week", method: .get, headers: bearer).status == .badRequest)
        #expect(try await client.execute(uri: "/api/v1/dashboard/links", method: .post, headers: bearer).status == .created)

        let hook = body(["url": "https://127.0.0.1/hooks", "events": ["issued"]])
        let added = try await client.execute(uri: "/api/v1/webhooks", method: .post, headers: bearer, body: hook)
        #expect(added.status == .created)
        let id = try #require(try object(added)["id"]?.stringValue)
        #expect(
            try await client.execute(
                uri: "/api/v1/webhooks", method: .post, headers: bearer, body: body(["url": "https://127.0.0.1/hooks"])
            ).status == .badRequest)
        #expect(try await client.execute(uri: "/api/v1/webhooks", method: .get, headers: bearer).status == .ok)
        #expect(
            try await client.execute(
                uri: "/api/v1/passes", method: .post, headers: json, body: try ServiceHarness.issueBody(serial: unique("oa"))
            ).status == .created)
        let listed = try await client.execute(uri: "/api/v1/webhooks/\(id)/deliveries?limit=1", method: .get, headers: bearer)
        #expect(listed.status == .ok)
        let delivery = try #require(try object(listed)["deliveries"]?.arrayValue?.first?["id"]?.numberValue?.intValue)
        #expect(
            try await client.execute(uri: "/api/v1/webhooks/\(id)/deliveries?limit=x", method: .get, headers: bearer).status == .badRequest)
        let replay = try await client.execute(uri: "/api/v1/webhooks/\(id)/deliveries/\(delivery)/replay", method: .post, headers: bearer)
        #expect([HTTPResponse.Status.accepted, .conflict].contains(replay.status), "still owed, unless the deliverer settled it already")
        #expect(
            try await client.execute(uri: "/api/v1/webhooks/\(id)/deliveries/0/replay", method: .post, headers: bearer).status == .notFound)
        #expect(try await client.execute(uri: "/api/v1/webhooks/\(id)", method: .delete, headers: bearer).status == .noContent)
        #expect(try await client.execute(uri: "/api/v1/webhooks/\(id)", method: .delete, headers: bearer).status == .notFound)
    }
}
