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
import Synchronization
import Testing

/// Rewards enrollment (Apple's “Return a Personalized Pass”; the article “The update web service protocol”) played by
/// a simulated device: it downloads a personalizable pass, signs up, checks the signature over its token with the
/// openssl CLI, and fetches the personalized pass.
@Suite struct PersonalizationTests {
    static let type = ServiceHarness.passType
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]

    static func rewardsBody(serial: String) -> ByteBuffer {
        let data: JSONValue = [
            "serialNumber": .string(serial), "memberId": "0001-2026-7788", "points": 0, "nfcMessage": "MLR1:0001-2026-7788",
        ]
        return ByteBuffer(bytes: JSONWriter.data(["template": "Rewards", "data": data], style: .compact))
    }

    static let signUp: JSONValue = [
        "fullName": "Zoë Müller", "givenName": "Zoë", "familyName": "Müller", "emailAddress": "zoe@example.test",
        "postalCode": "1070", "ISOCountryCode": "AT",
    ]

    static func personalizeBody(token: String, info: JSONValue) -> ByteBuffer {
        ByteBuffer(bytes: JSONWriter.data(["personalizationToken": .string(token), "requiredPersonalizationInfo": info], style: .compact))
    }

    /// `openssl smime -verify` of a detached DER signature over `content`, to the development root.
    static func opensslVerifies(signature: [UInt8], content: [UInt8]) throws -> TestEnvironment.ProcessResult {
        let folder = TestEnvironment.temporaryFolder("personalize")
        let signatureFile = folder.appendingPathComponent("signature.der")
        let contentFile = folder.appendingPathComponent("token")
        try Data(signature).write(to: signatureFile)
        try Data(content).write(to: contentFile)
        let root = try TestEnvironment.devChain().appendingPathComponent("root.pem")
        return try TestEnvironment.run(
            "/usr/bin/env",
            [
                "openssl", "smime", "-verify", "-binary", "-inform", "DER", "-in", signatureFile.path, "-content", contentFile.path,
                "-CAfile", root.path, "-purpose", "any", "-out", "/dev/null",
            ])
    }

    static func entries(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: try ZipArchive.read(bytes, source: "pass").map { ($0.name, $0.bytes) })
    }

    @Test(arguments: StoreKind.allCases)
    func signUpSignsTheTokenAndServesThePersonalizedPass(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let push = RecordingPushSender()
            let service = try ServiceHarness.service(store: store, push: push)
            try await buildApplication(core: service, logger: .init(label: "personalize")).serviceTest(.live) { client in
                let type = Self.type
                let serial = unique("MLR")
                let issued = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: Self.rewardsBody(serial: serial))
                #expect(issued.status == .created, "\(String(buffer: issued.body))")
                let token = try #require(try JSONParser.value(Array(issued.body.readableBytesView))["authenticationToken"]?.stringValue)
                let apple: HTTPFields = [.authorization: "ApplePass \(token)"]
                let device = unique("iphone")
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)/\(serial)", method: .post, headers: apple,
                    body: ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#)
                ) { #expect($0.status == .created) }
                var tag = ""
                try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)", method: .get) { response in
                    tag = try #require(try JSONParser.value(Array(response.body.readableBytesView))["lastUpdated"]?.stringValue)
                }

                // The personalizable pass: personalization.json and the sign-up logo, no member name yet.
                var lastModified = ""
                try await client.execute(uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple) { response in
                    #expect(response.status == .ok)
                    lastModified = try #require(response.headers[.lastModified])
                    let files = try Self.entries(Array(response.body.readableBytesView))
                    #expect(files["personalization.json"] != nil)
                    #expect(files["personalizationLogo@2x.png"] != nil)
                    let json = try JSONParser.value(try #require(files["pass.json"]))
                    #expect(json["storeCard"]?["secondaryFields"]?.arrayValue?.first?["value"] == "")
                }

                // Sign-up: 200, application/octet-stream, a PKCS#7 detached signature of the token that openssl verifies.
                let personalizationToken = "pt-" + UUID().uuidString
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(serial)/personalize", method: .post,
                    body: Self.personalizeBody(token: personalizationToken, info: Self.signUp)
                ) { response in
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                    #expect(response.headers[.contentType] == "application/octet-stream")
                    let signature = Array(response.body.readableBytesView)
                    let verified = try await onOwnThread {
                        try Self.opensslVerifies(signature: signature, content: Array(personalizationToken.utf8))
                    }
                    #expect(verified.status == 0, "\(verified.stderr)")
                    let forged = try await onOwnThread {
                        try Self.opensslVerifies(signature: signature, content: Array((personalizationToken + "x").utf8))
                    }
                    #expect(forged.status != 0, "the signature covers exactly the token")
                    let folder = TestEnvironment.temporaryFolder("personalize")
                    try Data(signature).write(to: folder.appendingPathComponent("signature.der"))
                    let certificates = try await onOwnThread {
                        try TestEnvironment.run(
                            "/usr/bin/env",
                            [
                                "openssl", "pkcs7", "-inform", "DER", "-in", folder.appendingPathComponent("signature.der").path,
                                "-print_certs", "-noout",
                            ])
                    }
                    #expect(
                        certificates.stdout.contains("UID=\(type)") || certificates.stdout.contains("UID = \(type)"),
                        "signed with the pass certificate: \(certificates.stdout)")
                }

                // Every registered device is told (in the background, so Wallet does not wait for APNs).
                let pushed = await eventually { push.pushes.withLock { $0.contains { $0.topic == type } } }
                #expect(pushed, "the registered devices get a push after sign-up")

                // The device polls, sees the serial, and fetches the personalized pass: no personalization.json, the name filled in.
                try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)?passesUpdatedSince=\(tag)", method: .get)
                { response in
                    #expect(response.status == .ok)
                    let serials = try JSONParser.value(Array(response.body.readableBytesView))["serialNumbers"]
                    #expect(serials == [.string(serial)])
                }
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple + [.ifModifiedSince: lastModified]
                ) { response in
                    #expect(response.status == .ok)
                    let bytes = Array(response.body.readableBytesView)
                    let root = try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path)
                    #expect(PassVerifier(root: root).verify(bytes, source: "personalized").isValid)
                    let files = try Self.entries(bytes)
                    #expect(files["personalization.json"] == nil, "a personalized pass must not hold personalization.json")
                    #expect(!files.keys.contains { $0.hasPrefix("personalizationLogo") })
                    let json = try JSONParser.value(try #require(files["pass.json"]))
                    #expect(json["storeCard"]?["secondaryFields"]?.arrayValue?.first?["value"] == "Zoë Müller")
                    #expect(json["storeCard"]?["backFields"]?.arrayValue?.first?["value"] == "zoe@example.test")
                    #expect(json["authenticationToken"]?.stringValue == token)
                }

                // A retry with the same information is signed again; other information is a conflict.
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(serial)/personalize", method: .post,
                    body: Self.personalizeBody(token: personalizationToken, info: Self.signUp)
                ) { #expect($0.status == .ok) }
                var changed = Self.signUp.objectValue!
                changed["emailAddress"] = "someone.else@example.test"
                let other = JSONValue.object(changed)
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(serial)/personalize", method: .post,
                    body: Self.personalizeBody(token: personalizationToken, info: other)
                ) { #expect($0.status == .conflict) }

                // The issuer sees what the user gave; a later PATCH keeps the pass personalized.
                try await client.execute(
                    uri: "/api/v1/passes/\(type)/\(serial)", method: .patch, headers: Self.bearer,
                    body: ByteBuffer(string: #"{"data":{"points":120}}"#)
                ) { response in
                    #expect(response.status == .ok)
                    let json = try JSONParser.value(Array(response.body.readableBytesView))
                    #expect(json["personalization"]?["emailAddress"] == "zoe@example.test")
                }
                try await client.execute(uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple) { response in
                    let files = try Self.entries(Array(response.body.readableBytesView))
                    #expect(files["personalization.json"] == nil)
                    let json = try JSONParser.value(try #require(files["pass.json"]))
                    #expect(json["storeCard"]?["headerFields"]?.arrayValue?.first?["value"] == 120)
                    #expect(json["storeCard"]?["secondaryFields"]?.arrayValue?.first?["value"] == "Zoë Müller")
                }
            }
        }
    }

    @Test func badPersonalizeRequestsAreRefusedWithTheirReason() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "personalize")).serviceTest(.router) { client in
                let type = Self.type
                let serial = unique("MLR")
                try await client.execute(uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: Self.rewardsBody(serial: serial))
                {
                    #expect($0.status == .created)
                }
                let loyalty = unique("L")
                try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: try ServiceHarness.issueBody(serial: loyalty)
                ) {
                    #expect($0.status == .created)
                }
                let uri = "/wallet/v1/passes/\(type)/\(serial)/personalize"
                func expect(
                    _ status: HTTPResponse.Status, _ body: String, uri: String = uri, headers: HTTPFields = [:], saying text: String? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation
                ) async throws {
                    try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
                        #expect(response.status == status, "\(body)", sourceLocation: sourceLocation)
                        if let text {
                            #expect(
                                String(buffer: response.body).contains(text), "\(String(buffer: response.body))",
                                sourceLocation: sourceLocation)
                        }
                    }
                }
                let info = String(decoding: JSONWriter.data(Self.signUp, style: .compact), as: UTF8.self)
                try await expect(.badRequest, "not json")
                try await expect(.badRequest, #"{"requiredPersonalizationInfo":\#(info)}"#, saying: "personalizationToken")
                try await expect(
                    .badRequest, #"{"personalizationToken":"","requiredPersonalizationInfo":\#(info)}"#, saying: "personalizationToken")
                try await expect(
                    .badRequest, #"{"personalizationToken":"t","requiredPersonalizationInfo":[]}"#, saying: "must be an object")
                try await expect(
                    .badRequest, #"{"personalizationToken":"t","requiredPersonalizationInfo":{"fullName":42}}"#, saying: "fullName")
                try await expect(
                    .badRequest, #"{"personalizationToken":"t","requiredPersonalizationInfo":{"fullName":"Zoë"}}"#,
                    saying: "PKPassPersonalizationFieldPostalCode")
                try await expect(
                    .notFound, #"{"personalizationToken":"t","requiredPersonalizationInfo":\#(info)}"#,
                    uri: "/wallet/v1/passes/\(type)/no-such-serial/personalize")
                try await expect(
                    .badRequest, #"{"personalizationToken":"t","requiredPersonalizationInfo":\#(info)}"#,
                    uri: "/wallet/v1/passes/\(type)/\(loyalty)/personalize", saying: "not personalizable")
                try await expect(
                    .unauthorized, #"{"personalizationToken":"t","requiredPersonalizationInfo":\#(info)}"#,
                    headers: [.authorization: "ApplePass wrong-token-0123456789"])
                try await expect(
                    .badRequest, #"{"personalizationToken":"t","requiredPersonalizationInfo":\#(info)}"#,
                    uri: "/wallet/v1/passes/\(type)/bad%20serial/personalize")
                // Nothing above changed the pass.
                let stored = try #require(try await store.pass(passTypeIdentifier: type, serialNumber: serial))
                #expect(stored.personalizationJSON == nil)
            }
        }
    }
}
