import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Passmint
import PassmintServer
import PassmintTestSupport
import Testing

/// Google fetches images by URL: the classes and objects the service sends name its own addresses under the public
/// URL (the stand-in refuses anything else), and those addresses answer the images.
@Suite struct GoogleImageTests {
    /// What the service answers at `uri` (an address under the public URL), fetched as Google would.
    static func fetch(_ client: some ServiceClient, _ uri: String) async throws -> (
        status: HTTPResponse.Status, type: String?, bytes: [UInt8]
    ) {
        #expect(uri.hasPrefix(GoogleServeHarness.imagePrefix), "\(uri)")
        let path = "/wallet/google/images/" + uri.dropFirst(GoogleServeHarness.imagePrefix.count)
        let response = try await client.execute(uri: path, method: .get)
        return (response.status, response.headers[.contentType], Array(response.body.readableBytesView))
    }

    static func template(_ file: String) throws -> [UInt8] {
        try FileIO.read(ServiceHarness.templates + "/" + file, what: "image")
    }

    @Test(arguments: StoreKind.allCases)
    func theClassNamesTheTemplateImagesAtAddressesThatAnswerThem(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind) { harness, client in
            let (_, answer) = try await GoogleServeTests.issue(client)
            let (collection, id) = try GoogleServeTests.savedObject(try #require(answer["googleSaveURL"]?.stringValue, "\(answer)"))
            let object = try #require(harness.standIn.stored(collection, id: id))
            let classID = try #require(object["classId"]?.stringValue)
            let loyaltyClass = try #require(harness.standIn.stored("loyaltyClass", id: classID))
            let logo = try #require(loyaltyClass["programLogo"]?["sourceUri"]?["uri"]?.stringValue, "\(loyaltyClass)")
            let hero = try #require(loyaltyClass["heroImage"]?["sourceUri"]?["uri"]?.stringValue)
            #expect(logo.hasPrefix(GoogleServeHarness.imagePrefix + "templates/Loyalty/"))
            for (uri, file) in [(logo, "Loyalty.pass/logo@3x.png"), (hero, "Loyalty.pass/strip@3x.png")] {
                let fetched = try await Self.fetch(client, uri)
                #expect(fetched.status == .ok && fetched.type == "image/png")
                #expect(fetched.bytes == (try Self.template(file)), "\(uri) answers \(file)")
            }
            // A second pass makes the same class: nothing is sent for it again.
            let classCalls = harness.standIn.received.filter { $0.path.contains("Class") }.count
            _ = try await GoogleServeTests.issue(client)
            #expect(harness.standIn.received.filter { $0.path.contains("Class") }.count == classCalls)
            // An address the service never gave answers 404.
            let wrong = GoogleServeHarness.imagePrefix + "templates/Loyalty/" + String(repeating: "0", count: 40) + ".png"
            #expect(try await Self.fetch(client, wrong).status == .notFound)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPassOwnImageIsServedOnlyAtItsOwnAddress(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind) { harness, client in
            let serial = unique("GIMG")
            let issue: JSONValue = [
                "template": "Generic", "data": .object(try PassImagesRoutesTests.genericData(serial: serial)),
                "images": ["thumbnail@2x": .string(Data(PassImagesRoutesTests.photoA).base64EncodedString())],
            ]
            let created = try await client.execute(
                uri: "/api/v1/passes", method: .post, headers: PassImagesRoutesTests.headers, body: PassImagesRoutesTests.body(issue))
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let answer = try JSONParser.value(Array(created.body.readableBytesView))
            let (collection, id) = try GoogleServeTests.savedObject(try #require(answer["googleSaveURL"]?.stringValue, "\(answer)"))
            let object = try #require(harness.standIn.stored(collection, id: id))
            let photo = try #require(
                object["imageModulesData"]?.arrayValue?.first?["mainImage"]?["sourceUri"]?["uri"]?.stringValue, "\(object)")
            #expect(photo.hasPrefix(GoogleServeHarness.imagePrefix + "passes/\(ServiceHarness.passType)/\(serial)/"))
            #expect(try await Self.fetch(client, photo).bytes == PassImagesRoutesTests.photoA)
            let logo = try #require(object["logo"]?["sourceUri"]?["uri"]?.stringValue)
            #expect(try await Self.fetch(client, logo).bytes == (try Self.template("Generic.pass/logo@3x.png")))
            // Another pass's address does not answer this pass's photo.
            let elsewhere = photo.replacingOccurrences(of: serial, with: serial + "X")
            #expect(try await Self.fetch(client, elsewhere).status == .notFound)
        }
    }
}
