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

/// What the issuing API answers a shop can map to its form: a code, a message, and every problem of the data with
/// the data key it is about; the templates when one is unknown; a bundle's tickets as JSON.
@Suite struct APIErrorTests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]

    /// The `error` member of an answer.
    static func error(_ response: ServiceResponse) throws -> JSONValue {
        try #require(try JSONParser.value(Array(response.body.readableBytesView))["error"])
    }

    static func issueBody(_ data: JSONObject, template: String = "Loyalty") -> ByteBuffer {
        ByteBuffer(bytes: JSONWriter.data(["template": .string(template), "data": .object(data)], style: .compact))
    }

    @Test func aPassWithTwoBadValuesAnswersBothProblemsWithTheirDataKeys() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                var data = try ServiceHarness.loyaltyData(serial: unique("E"))
                data["points"] = "many"
                data["memberSince"] = "last spring"
                let response = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: Self.issueBody(data))
                #expect(response.status == .unprocessableContent)
                let error = try Self.error(response)
                #expect(error["code"] == "invalid-pass", "\(error)")
                #expect(error["message"]?.stringValue?.isEmpty == false)
                let problems = try #require(error["problems"]?.arrayValue)
                #expect(Set(problems.compactMap { $0["field"]?.stringValue }) == ["points", "memberSince"], "\(problems)")
                let points = try #require(problems.first { $0["field"] == "points" })
                #expect(points["code"] == "field-number-style" && points["message"]?.stringValue?.contains("\"many\"") == true, "\(points)")
                let since = try #require(problems.first { $0["field"] == "memberSince" })
                #expect(since["code"] == "field-date-style", "\(since)")
                #expect(!String(buffer: response.body).contains("--"), "no command-line advice")
            }
        }
    }

    @Test func missingValuesAreAllNamedWithoutCommandLineAdvice() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                var data = try ServiceHarness.loyaltyData(serial: unique("E"))
                data["memberName"] = nil
                data["tier"] = nil
                let response = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: Self.issueBody(data))
                #expect(response.status == .unprocessableContent)
                let error = try Self.error(response)
                #expect(error["code"] == "invalid-data", "\(error)")
                let problems = try #require(error["problems"]?.arrayValue)
                #expect(Set(problems.compactMap { $0["field"]?.stringValue }) == ["memberName", "tier"], "\(problems)")
                #expect(problems.allSatisfy { $0["code"] == "placeholder-missing" }, "\(problems)")
                let body = String(buffer: response.body)
                #expect(!body.contains("--") && !body.contains("column"), "\(body)")
            }
        }
    }

    @Test func anUnknownTemplateListsTheTemplates() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let response = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: Self.issueBody([:], template: "Loyalti"))
                #expect(response.status == .badRequest)
                let error = try Self.error(response)
                #expect(error["code"] == "unknown-template", "\(error)")
                let message = try #require(error["message"]?.stringValue)
                for name in ["Coupon", "EventTicket", "Loyalty", "StoreCard"] { #expect(message.contains(name), "\(message)") }
                #expect(error["problems"] == .array([]))
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBundleAnswersEachTicketsSerialTokenAndLinksAsJSON(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender(), linkSecret: PassLinksTests.secret)
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                let serials = [unique("T"), unique("T")]
                let passes: [JSONValue] = try serials.map {
                    ["template": "Loyalty", "data": .object(try ServiceHarness.loyaltyData(serial: $0))]
                }
                var headers = Self.bearer
                headers[.accept] = "application/json"
                let response = try await client.execute(
                    uri: "/api/v1/bundles", method: .post, headers: headers,
                    body: ByteBuffer(bytes: JSONWriter.data(["passes": .array(passes)], style: .compact)))
                #expect(response.status == .created)
                #expect(response.headers[.contentType] == "application/json")
                let answered = try #require(try JSONParser.value(Array(response.body.readableBytesView))["passes"]?.arrayValue)
                #expect(answered.map { $0["serialNumber"]?.stringValue } == serials)
                for (pass, serial) in zip(answered, serials) {
                    let stored = try #require(try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial))
                    #expect(pass["authenticationToken"]?.stringValue == stored.authenticationToken)
                    let download = try #require(pass["links"]?["download"]?.stringValue)
                    #expect(pass["links"]?["add"]?.stringValue != nil)
                    // The ticket's own link downloads that ticket.
                    let fetched = try await client.execute(uri: SharingRoutesTests.local(download), method: .get)
                    #expect(fetched.status == .ok && fetched.headers[.contentType] == "application/vnd.apple.pkpass")
                }
            }
        }
    }
}
