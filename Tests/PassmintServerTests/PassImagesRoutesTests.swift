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

/// Per-pass images through the issuing API: `"images"` in POST and PATCH, stored once by content, rendered into the
/// pass over the template's slot, and refused with the JSON path when they are not what Wallet shows.
@Suite struct PassImagesRoutesTests {
    static let headers: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]
    static let photoA = TestPNG.make(width: 180, height: 180, rgba: (0xD0, 0x40, 0x40, 0xFF))
    static let photoB = TestPNG.make(width: 150, height: 150, rgba: (0x40, 0x40, 0xD0, 0xFF))

    static func genericData(serial: String) throws -> JSONObject {
        let path = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Generic.json").path
        var data = try JSONParser.value(try FileIO.read(path, what: "")).objectValue!
        data["serialNumber"] = .string(serial)
        return data
    }

    static func body(_ value: JSONValue) -> ByteBuffer { ByteBuffer(bytes: JSONWriter.data(value, style: .compact)) }

    /// The pass's files as a device would download them from a service that has nothing cached.
    static func downloaded(_ store: any PassStore, serial: String) async throws -> [String: [UInt8]] {
        let cold = try ServiceHarness.service(store: store, push: RecordingPushSender())
        let pass = try #require(try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial))
        let archive = Array(buffer: try await cold.downloads.latestPass(pass))
        let verifier = PassVerifier(root: try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path))
        let report = verifier.verify(archive, source: serial)
        #expect(report.isValid, "\(report)")
        return Dictionary(uniqueKeysWithValues: try ZipArchive.read(archive, source: serial).map { ($0.name, $0.bytes) })
    }

    @Test(arguments: StoreKind.allCases)
    func aPhotoIsIssuedReplacedAndDropped(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: core, logger: Logger(label: "images")).serviceTest(.router) { client in
                let serial = unique("IMG")
                let issue: JSONValue = [
                    "template": "Generic", "data": .object(try Self.genericData(serial: serial)),
                    "images": ["thumbnail@2x": .string(Data(Self.photoA).base64EncodedString())],
                ]
                let created = try await client.execute(uri: "/api/v1/passes", method: .post, headers: Self.headers, body: Self.body(issue))
                #expect(created.status == .created, "\(String(buffer: created.body))")
                let answer = try JSONParser.value(Array(created.body.readableBytesView))
                #expect(answer["data"]?["image:thumbnail@2x"]?.stringValue == "sha256:" + Digest.sha256Hex(Self.photoA))

                var files = try await Self.downloaded(store, serial: serial)
                #expect(files["thumbnail@2x.png"] == Self.photoA)
                #expect(files["thumbnail.png"] == nil && files["thumbnail@3x.png"] == nil, "no template picture of the slot remains")
                #expect(try JSONParser.value(files["manifest.json"]!)["thumbnail@2x.png"]?.stringValue == Digest.sha1Hex(Self.photoA))

                let uri = "/api/v1/passes/\(ServiceHarness.passType)/\(serial)"
                let replace: JSONValue = ["images": ["thumbnail@2x": .string(Data(Self.photoB).base64EncodedString())]]
                let replaced = try await client.execute(uri: uri, method: .patch, headers: Self.headers, body: Self.body(replace))
                #expect(replaced.status == .ok, "\(String(buffer: replaced.body))")
                files = try await Self.downloaded(store, serial: serial)
                #expect(files["thumbnail@2x.png"] == Self.photoB)

                let drop: JSONValue = ["images": ["thumbnail@2x": nil]]
                let dropped = try await client.execute(uri: uri, method: .patch, headers: Self.headers, body: Self.body(drop))
                #expect(dropped.status == .ok)
                #expect(try JSONParser.value(Array(dropped.body.readableBytesView))["data"]?["image:thumbnail@2x"] == nil)
                files = try await Self.downloaded(store, serial: serial)
                let template = ServiceHarness.templates + "/Generic.pass/"
                #expect(files["thumbnail@2x.png"] == (try FileIO.read(template + "thumbnail@2x.png", what: "image")))
                #expect(files["thumbnail@3x.png"] != nil)
            }
        }
    }

    @Test func badImagesAreRefusedWithTheirJSONPath() async throws {
        try await withStore(.sqlite) { store in
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: core, logger: Logger(label: "images")).serviceTest(.router) { client in
                let cases: [(JSONValue, HTTPResponse.Status, String)] = [
                    (["thumbnail@2x": "!!not base64!!"], .badRequest, "images.thumbnail@2x is not base64"),
                    (
                        ["thumbnail@2x": .string(Data("hello".utf8).base64EncodedString())], .unprocessableContent,
                        "images.thumbnail@2x is not a PNG"
                    ),
                    (
                        ["photo": .string(Data(Self.photoA).base64EncodedString())], .unprocessableContent,
                        "images.photo: photo is not an image Wallet shows"
                    ),
                    (
                        ["thumbnail@2x": .string(Data(TestPNG.make(width: 400, height: 400)).base64EncodedString())], .unprocessableContent,
                        "images.thumbnail@2x is 400×400 px; thumbnail@2x.png should be at most 180×180 px"
                    ),
                    (["thumbnail@2x": 12], .badRequest, "images.thumbnail@2x must be a base64 PNG"),
                ]
                for (images, status, message) in cases {
                    let serial = unique("BAD")
                    let issue: JSONValue = ["template": "Generic", "data": .object(try Self.genericData(serial: serial)), "images": images]
                    let response = try await client.execute(
                        uri: "/api/v1/passes", method: .post, headers: Self.headers, body: Self.body(issue))
                    #expect(response.status == status, "\(images)")
                    #expect(String(buffer: response.body).contains(message), "\(String(buffer: response.body))")
                    #expect(
                        try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial) == nil, "nothing stored")
                }
            }
        }
    }
}
