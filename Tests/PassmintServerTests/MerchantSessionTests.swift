import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOSSL
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// `POST /pay/session`: a web page's merchant validation goes to Apple's gateways only (hostile validation URLs are
/// refused before anything is sent), with the Merchant Identity certificate, to a TLS stand-in that requires and checks
/// the client certificate (its address enters only through the configuration's test-only gateway). Apple's refusals,
/// redirects and silence are 502s.
@Suite struct MerchantSessionTests {
    static let merchant = "merchant.dev.passmint.test"
    static let session = #"{"epochTimestamp": 1768471200000, "merchantSessionIdentifier": "SSH0123", "signature": "abcd"}"#

    /// Certificates made by `openssl` at test time: a CA, a Merchant Identity it issued (`identity.pem`: certificate and
    /// key), and one a stranger CA issued (`stranger.pem`).
    struct Certificates {
        let folder: URL
        var ca: String { folder.appendingPathComponent("ca.pem").path }
        var identity: String { folder.appendingPathComponent("identity.pem").path }
        var stranger: String { folder.appendingPathComponent("stranger.pem").path }

        static func make() async throws -> Certificates {
            let folder = TestEnvironment.temporaryFolder("merchant-identity")
            try await offPool {
                Result {
                    for (ca, name) in [("ca", "identity"), ("stranger-ca", "stranger")] {
                        let path = { (file: String) in folder.appendingPathComponent(file).path }
                        try Self.openssl([
                            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("\(ca).key"),
                            "-out", path("\(ca).pem"), "-days", "2", "-subj", "/CN=Test Merchant CA",
                        ])
                        try Self.openssl([
                            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("\(name).key"), "-out",
                            path("\(name).csr"), "-subj", "/UID=\(merchant)/CN=Merchant ID: \(merchant)",
                        ])
                        try Self.openssl([
                            "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(ca).pem"), "-CAkey", path("\(ca).key"),
                            "-CAcreateserial", "-out", path("\(name).crt"), "-days", "2",
                        ])
                        let pem =
                            try String(contentsOfFile: path("\(name).crt"), encoding: .utf8)
                            + (try String(contentsOfFile: path("\(name).key"), encoding: .utf8))
                        try pem.write(toFile: path("\(name).pem"), atomically: true, encoding: .utf8)
                    }
                }
            }.get()
            return Certificates(folder: folder)
        }

        /// `identity.pem` with its key encrypted with `passphrase` (PKCS #8, AES-256-CBC, by openssl): its path.
        func encryptedIdentity(passphrase: String) async throws -> String {
            let folder = folder
            return try await offPool {
                Result {
                    let path = { (file: String) in folder.appendingPathComponent(file).path }
                    try Self.openssl([
                        "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", path("identity.key"), "-out", path("identity.enc.key"),
                        "-passout", "pass:\(passphrase)",
                    ])
                    let key = try String(contentsOfFile: path("identity.enc.key"), encoding: .utf8)
                    guard key.contains("ENCRYPTED PRIVATE KEY") else {
                        throw PaymentTestFailure("openssl did not encrypt the key: \(key.prefix(40))")
                    }
                    let pem = try String(contentsOfFile: path("identity.crt"), encoding: .utf8) + key
                    try pem.write(toFile: path("identity.enc.pem"), atomically: true, encoding: .utf8)
                    return path("identity.enc.pem")
                }
            }.get()
        }

        static func openssl(_ arguments: [String]) throws {
            let result = try TestEnvironment.run("openssl", arguments)
            guard result.status == 0 else { throw PaymentTestFailure("openssl \(arguments[0]): \(result.stderr)") }
        }
    }

    /// A stand-in for Apple's gateway that requires a client certificate issued by `certificates.ca`.
    static func gateway(_ certificates: Certificates, answer: @escaping @Sendable (TLSStandIn.Received) -> TLSStandIn.Answer) async throws
        -> TLSStandIn
    {
        let folder = TestEnvironment.temporaryFolder("gateway")
        return try await offPool {
            Result { try TLSStandIn(folder: folder, clientCA: certificates.ca, answer: answer) }
        }.get()
    }

    static func core(
        store: any PassStore, identity path: String, passphrase: String? = nil, gateway: TLSStandIn?, timeout: Duration = .seconds(10)
    ) throws -> ServiceCore {
        var configuration = try ServiceHarness.configuration()
        var identity = try MerchantIdentityConfiguration(
            pem: try String(contentsOfFile: path, encoding: .utf8), source: path, passphrase: passphrase, displayName: "Passmint Tickets",
            domain: "shop.example.test",
            timeout: timeout)
        if let gateway {
            identity.testOnlyGateway = (URL(string: gateway.url)!, try NIOSSLCertificate.fromPEMFile(gateway.certificateFile))
        }
        configuration.merchantIdentity = identity
        return ServiceCore(configuration: configuration, store: store, push: RecordingPushSender(), logger: .init(label: "test.session"))
    }

    static func ask(_ client: some ServiceClient, _ url: String) async throws -> ServiceResponse {
        try await client.execute(
            uri: "/pay/session", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(bytes: JSONWriter.data(["validationURL": .string(url)], style: .compact)))
    }

    static func code(_ response: ServiceResponse) throws -> String {
        "\(response.status.code) \(try APIErrorTests.error(response)["code"]?.stringValue ?? "")"
    }

    static let hostile = [
        "https://evil.example.com/paymentservices/startSession",
        "https://apple-pay-gateway.apple.com.evil.example/paymentservices/startSession",
        "https://evilapple-pay-gateway.apple.com/paymentservices/startSession",
        "https://apple-pay-gateway.apple.com./paymentservices/startSession",
        "https://apple-pay-gateway-nc-pod6.apple.com/paymentservices/startSession",
        "https://apple.com/paymentservices/startSession",
        "https://apple-pay-gateway.apple.com:8443/paymentservices/startSession",
        "https://apple-pay-gateway.apple.com:443@evil.example/paymentservices/startSession",
        "http://apple-pay-gateway.apple.com/paymentservices/startSession",
        "ftp://apple-pay-gateway.apple.com/paymentservices/startSession",
        "file:///etc/passwd", "javascript:alert(1)", "", "//apple-pay-gateway.apple.com/paymentservices/startSession",
        "https://user:secret@apple-pay-gateway.apple.com/paymentservices/startSession",
        "https://apple-pay-gateway.apple.com@evil.example/paymentservices/startSession",
        "https://17.171.78.7/paymentservices/startSession", "https://127.0.0.1/paymentservices/startSession",
        "https://[::1]/paymentservices/startSession", "https://2130706433/paymentservices/startSession",
        "https://apple-pay-gateway%2Eapple.com/paymentservices/startSession",
        "https://apple-pay-gateway.apple.com/paymentservices%2F..%2Fadmin",
        "https://apple-pay-gateway.apple.com/paymentservices/../admin",
        "https://apple-pay-gateway.apple.com/paymentservices/",
        "https://apple-pay-gateway.apple.com/admin/startSession",
        "https://apple-pay-gateway.apple.com/paymentservices/startSession?next=https://evil.example",
        "https://apple-pay-gateway.apple.com/paymentservices/startSession#x",
        " https://apple-pay-gateway.apple.com/paymentservices/startSession",
        "https://apple-pay-gateway.apple.com\\@evil.example/paymentservices/startSession",
        "https://apple-pay-gateway.apple.com/paymentservices/startSession\r\nHost: evil.example",
    ]

    @Test func hostileValidationURLsAreRefusedBeforeAnythingIsSent() async throws {
        let certificates = try await Certificates.make()
        let gateway = try await Self.gateway(certificates) { _ in TLSStandIn.Answer(200, Self.session) }
        defer { gateway.shutdown() }
        try await withStore(.sqlite) { store in
            let core = try Self.core(store: store, identity: certificates.identity, gateway: gateway)
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                for url in Self.hostile {
                    let refused = try await Self.ask(client, url)
                    #expect(try Self.code(refused) == "400 invalid-validation-url", "\(url)")
                }
                #expect(gateway.received.isEmpty, "nothing reached the network")
                // Apple's hosts, with or without their port, reach the gateway (the stand-in, through the test-only setting).
                for host in [
                    "apple-pay-gateway.apple.com", "cn-apple-pay-gateway.apple.com:443", "apple-pay-gateway-nc-pod5.apple.com",
                    "apple-pay-gateway-pr-pod1.apple.com", "cn-apple-pay-gateway-sh-pod3.apple.com",
                    "cn-apple-pay-gateway-tj-pod1.apple.com",
                    "apple-pay-gateway-cert.apple.com",
                ] {
                    let answered = try await Self.ask(client, "https://\(host)/paymentservices/paymentSession")
                    #expect(answered.status == .ok, "\(host)")
                }
                #expect(gateway.received.map(\.path) == Array(repeating: "/paymentservices/paymentSession", count: 7))
            }
        }
    }

    @Test func theSessionIsAskedWithTheMerchantIdentityAndAnsweredAsAppleGaveIt() async throws {
        let certificates = try await Certificates.make()
        let gateway = try await Self.gateway(certificates) { _ in TLSStandIn.Answer(200, Self.session) }
        defer { gateway.shutdown() }
        try await withStore(.sqlite) { store in
            let core = try Self.core(store: store, identity: certificates.identity, gateway: gateway)
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                let answered = try await Self.ask(client, "https://apple-pay-gateway.apple.com/paymentservices/startSession")
                #expect(answered.status == .ok && answered.headers[.contentType] == "application/json")
                #expect(String(buffer: answered.body) == Self.session, "Apple's session, as it came")
                let asked = try #require(gateway.received.first)
                #expect(asked.method == "POST" && asked.path == "/paymentservices/startSession")
                #expect(
                    asked.json == [
                        "merchantIdentifier": .string(Self.merchant), "displayName": "Passmint Tickets", "initiative": "web",
                        "initiativeContext": "shop.example.test",
                    ])
                #expect(
                    asked.clientSubject?.contains("UID=\(Self.merchant)") == true || asked.clientSubject?.contains(Self.merchant) == true)
            }
            // The same identity with its key encrypted presents the same certificate.
            let encrypted = try Self.core(
                store: store, identity: try await certificates.encryptedIdentity(passphrase: "identity-pw"), passphrase: "identity-pw",
                gateway: gateway)
            try await buildApplication(core: encrypted, logger: .init(label: "test")).serviceTest(.router) { client in
                let answered = try await Self.ask(client, "https://apple-pay-gateway.apple.com/paymentservices/startSession")
                #expect(answered.status == .ok && String(buffer: answered.body) == Self.session)
                #expect(gateway.received.count == 2 && gateway.received.last?.clientSubject?.contains(Self.merchant) == true)
            }
            // A Merchant Identity the gateway's CA did not issue fails the handshake: nothing is answered, 502.
            let stranger = try Self.core(store: store, identity: certificates.stranger, gateway: gateway)
            try await buildApplication(core: stranger, logger: .init(label: "test")).serviceTest(.router) { client in
                let refused = try await Self.ask(client, "https://apple-pay-gateway.apple.com/paymentservices/startSession")
                #expect(try Self.code(refused) == "502 apple-pay-session-failed")
                #expect(gateway.received.count == 2, "the stand-in answered no request without its client certificate")
            }
        }
    }

    @Test func appleRefusingRedirectingOrSilentIsABadGateway() async throws {
        let certificates = try await Certificates.make()
        let gateway = try await Self.gateway(certificates) { request in
            switch request.path {
            case "/paymentservices/refuse": TLSStandIn.Answer(400, #"{"statusMessage": "Invalid domain", "statusCode": "400"}"#)
            case "/paymentservices/redirect": TLSStandIn.Answer(302, "{}", headers: [("Location", "https://127.0.0.1:1/steal")])
            default: TLSStandIn.Answer(200, withheld: true)
            }
        }
        defer { gateway.shutdown() }
        try await withStore(.sqlite) { store in
            let core = try Self.core(store: store, identity: certificates.identity, gateway: gateway, timeout: .seconds(1))
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                let refused = try await Self.ask(client, "https://apple-pay-gateway.apple.com/paymentservices/refuse")
                #expect(try Self.code(refused) == "502 apple-pay-session-failed")
                #expect(try APIErrorTests.error(refused)["message"]?.stringValue?.contains("HTTP 400: Invalid domain") == true)
                let redirected = try await Self.ask(client, "https://apple-pay-gateway.apple.com/paymentservices/redirect")
                #expect(try Self.code(redirected) == "502 apple-pay-session-failed")
                #expect(gateway.received.count == 2, "the redirect was not followed")
                let silent = try await Self.ask(client, "https://apple-pay-gateway.apple.com/paymentservices/silent")
                #expect(try Self.code(silent) == "502 apple-pay-session-failed")
                #expect(try APIErrorTests.error(silent)["message"]?.stringValue?.contains("could not be reached within") == true)
            }
        }
    }

    @Test func withoutAMerchantIdentityThereIsNoSession() async throws {
        try await withStore(.sqlite) { store in
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                let refused = try await Self.ask(client, "https://apple-pay-gateway.apple.com/paymentservices/startSession")
                #expect(try Self.code(refused) == "501 apple-pay-not-configured")
            }
        }
    }
}
