import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Passmint
import PassmintGoogle
import PassmintServer
import PassmintTestSupport
import Testing

/// `passmint serve` with a Google account: issuing answers carry `googleSaveURL`, the class is sent once per template
/// version and the object on the first link, against the Google stand-in.
@Suite struct GoogleServeTests {
    static let bearer = SharingRoutesTests.bearer

    /// Issues a Loyalty pass with a JSON answer; returns its serial and the answer.
    static func issue(_ client: some ServiceClient) async throws -> (serial: String, answer: JSONValue) {
        let serial = unique("GOOGLE")
        let response = try await client.execute(
            uri: "/api/v1/passes", method: .post, headers: bearer, body: try ServiceHarness.issueBody(serial: serial))
        #expect(response.status == .created)
        return (serial, try JSONParser.value(Array(response.body.readableBytesView)))
    }

    /// The object a save link names, and its collection.
    static func savedObject(_ link: String) throws -> (collection: String, id: String) {
        let payload = try GoogleServeHarness.claims(ofSaveLink: link)["payload"]?.objectValue
        let member = try #require(payload.flatMap { Array($0).first })
        let style = try #require(GoogleWalletStyle.allCases.first { $0.payloadKey == member.key })
        return (style.objectCollection, try #require(member.value.arrayValue?.first?["id"]?.stringValue))
    }

    @Test(arguments: StoreKind.allCases)
    func issuingAnswersCarryASaveLinkToTheObjectGoogleHolds(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind) { harness, client in
            let (serial, answer) = try await Self.issue(client)
            let link = try #require(answer["googleSaveURL"]?.stringValue, "\(answer)")
            #expect(link.hasPrefix(GoogleSaveLink.base))
            let claims = try GoogleServeHarness.claims(ofSaveLink: link)
            #expect(claims["aud"] == "google" && claims["typ"] == "savetowallet")
            #expect(claims["origins"] == ["https://passes.example.test"])
            let (collection, id) = try Self.savedObject(link)
            #expect(id == "\(GoogleServeHarness.issuerID).\(ServiceHarness.passType).\(serial)")
            let object = try #require(harness.standIn.stored(collection, id: id))
            #expect(object["state"] == "ACTIVE")
            let classID = try #require(object["classId"]?.stringValue)
            #expect(classID == "\(GoogleServeHarness.issuerID).Loyalty")
            #expect(harness.standIn.stored(collection.replacingOccurrences(of: "Object", with: "Class"), id: classID) != nil)
            // The lookup answers the same link without sending anything again.
            let sent = harness.standIn.received.count
            let lookup = try await client.execute(
                uri: "/api/v1/passes/\(ServiceHarness.passType)/\(serial)", method: .get, headers: Self.bearer)
            let looked = try JSONParser.value(Array(lookup.body.readableBytesView))
            #expect(try Self.savedObject(try #require(looked["googleSaveURL"]?.stringValue)).id == id)
            #expect(harness.standIn.received.count == sent)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theClassIsSentOncePerTemplateVersionAndEachObjectOnItsFirstLink(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind) { harness, client in
            for _ in 0..<3 { _ = try await Self.issue(client) }
            let classCalls = harness.standIn.received.filter { $0.path.contains("Class") }
            let objectInserts = harness.standIn.received.filter { $0.method == "POST" && $0.path.contains("Object") }
            #expect(classCalls.map(\.method) == ["GET", "POST"])
            #expect(objectInserts.count == 3 && objectInserts.allSatisfy { $0.status == 200 })
            // A pass answered as a .pkpass (no JSON asked) makes no link and sends nothing.
            let sent = harness.standIn.received.count
            let archive = try await client.execute(
                uri: "/api/v1/passes", method: .post, headers: [.authorization: "Bearer \(ServiceHarness.apiKey)"],
                body: try ServiceHarness.issueBody(serial: unique("APPLE")))
            #expect(archive.status == .created && harness.standIn.received.count == sent)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPassIsIssuedWhenGoogleRefusesAndTheLookupMakesItsLinkLater(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind) { harness, client in
            harness.standIn.failNextTokens([.init(status: 401)])
            let (serial, answer) = try await Self.issue(client)
            #expect(answer["googleSaveURL"]?.stringValue == nil)
            #expect(answer["googleError"]?.stringValue?.contains("refused the service account") == true, "\(answer)")
            let lookup = try await client.execute(
                uri: "/api/v1/passes/\(ServiceHarness.passType)/\(serial)", method: .get, headers: Self.bearer)
            #expect(lookup.status == .ok)
            let looked = try JSONParser.value(Array(lookup.body.readableBytesView))
            #expect(looked["googleSaveURL"]?.stringValue?.hasPrefix(GoogleSaveLink.base) == true, "\(looked)")
        }
    }
}
