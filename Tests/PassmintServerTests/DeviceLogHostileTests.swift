import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Passmint
import PassmintStore
import Testing

@testable import PassmintServer

/// Device logs from hostile clients (issue 32, item 10): cut by bytes, not characters; no separator or bidi control
/// reaches the log raw; room kept for quiet devices; the client's address taken from proxy headers only when the
/// peer is a trusted proxy.
@Suite struct DeviceLogHostileTests {
    static func book(_ burst: Double = 100, clientBurst: Double = 20) -> DeviceLogBook {
        DeviceLogBook(
            limit: 10_000, logger: Logger(label: "test.logs"), rate: 0.001, burst: burst, clientRate: 0.001, clientBurst: clientBurst)
    }

    @Test func aMessageIsCutByItsBytesOnAScalarBoundary() {
        let book = Self.book()
        let combining = "e" + String(repeating: "\u{301}", count: 30_000)  // one character, 60 KB
        book.record([combining, String(repeating: "€", count: 1_000)])
        let kept = book.recent
        #expect(kept.count == 2)
        #expect(kept[0].utf8.count <= DeviceLogBook.maximumMessageBytes && kept[0].utf8.count >= DeviceLogBook.maximumMessageBytes - 1)
        #expect(combining.unicodeScalars.starts(with: kept[0].unicodeScalars), "a prefix of whole scalars")
        #expect(kept[1] == String(repeating: "€", count: DeviceLogBook.maximumMessageBytes / 3), "three bytes each, none cut in half")
        let escapes = String(repeating: "\u{1B}", count: 1_000)
        book.record([escapes])
        #expect(book.recent.last == String(repeating: "\\u{1B}", count: DeviceLogBook.maximumMessageBytes / 6), "escapes count too")
    }

    @Test func separatorsAndBidiControlsAreEscaped() {
        let book = Self.book()
        let hostile = [
            "a\u{2028}b\u{2029}c", "invoice \u{202E}fdp.exe", "\u{202A}\u{202B}\u{202C}\u{202D}", "\u{2066}\u{2067}\u{2068}\u{2069}",
        ]
        book.record(hostile)
        #expect(
            book.recent == [
                "a\\u{2028}b\\u{2029}c", "invoice \\u{202E}fdp.exe", "\\u{202A}\\u{202B}\\u{202C}\\u{202D}",
                "\\u{2066}\\u{2067}\\u{2068}\\u{2069}",
            ])
        for message in book.recent {
            #expect(!message.unicodeScalars.contains { (0x2028...0x2029).contains($0.value) || (0x202A...0x202E).contains($0.value) })
            #expect(!message.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) })
        }
    }

    @Test func heavyAddressesCannotStarveAQuietDevice() {
        let book = Self.book(100, clientBurst: 20)
        for heavy in 0..<5 {
            for _ in 0..<3 { book.record((0..<10).map { "heavy \(heavy) \($0)" }, client: "203.0.113.\(heavy)") }
        }
        #expect(book.recent.count == 100, "five heavy addresses spent the shared budget")
        book.record(["a quiet phone"], client: "198.51.100.9")
        #expect(book.recent.last == "a quiet phone", "the reserve keeps room for a device that sends little")
        book.record(["again", "and again"], client: "198.51.100.9")
        #expect(book.recent.count == 101, "once it has sent, it is no longer quiet: it waits like everyone")
        book.record(["heavy again"], client: "203.0.113.0")
        #expect(book.recent.count == 101, "a heavy address gets nothing from the reserve")
    }

    @Test func proxyHeadersNameTheClientOnlyFromATrustedProxy() throws {
        let trusted = [try #require(IPNetwork("10.0.0.0/8")), try #require(IPNetwork("2001:db8::1"))]
        var headers = HTTPFields()
        headers[ClientAddress.forwardedFor] = "198.51.100.1, 203.0.113.5, 10.1.2.3"
        #expect(ClientAddress.resolve(peer: "10.9.9.9", headers: headers, trusted: trusted) == "203.0.113.5", "the nearest untrusted hop")
        #expect(
            ClientAddress.resolve(peer: "192.0.2.1", headers: headers, trusted: trusted) == "192.0.2.1",
            "an untrusted peer's header is ignored")
        #expect(ClientAddress.resolve(peer: "::ffff:10.0.0.7", headers: headers, trusted: trusted) == "203.0.113.5")
        var forwarded = HTTPFields()
        forwarded[ClientAddress.forwarded] = "for=192.0.2.60;proto=https, for=\"[2001:db8:cafe::17]:4711\""
        forwarded[ClientAddress.forwardedFor] = "198.51.100.1"
        #expect(ClientAddress.resolve(peer: "2001:db8::1", headers: forwarded, trusted: trusted) == "2001:db8:cafe::17")
        var garbage = HTTPFields()
        garbage[ClientAddress.forwardedFor] = "not-an-address"
        #expect(ClientAddress.resolve(peer: "10.0.0.1", headers: garbage, trusted: trusted) == "10.0.0.1")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", headers: HTTPFields(), trusted: trusted) == "10.0.0.1")
        #expect(IPNetwork("10.0.0.0/33") == nil && IPNetwork("example.com") == nil)
    }

    @Test func behindATrustedProxyEachDeviceHasItsOwnBudget() async throws {
        try await withStore(.sqlite) { store in
            var configuration = try ServiceHarness.configuration()
            configuration.trustedProxies = [try #require(IPNetwork("127.0.0.1"))]
            let service = ServiceCore(
                configuration: configuration, store: store, push: RecordingPushSender(), logger: Logger(label: "logs"))
            try await buildApplication(core: service, logger: Logger(label: "logs")).serviceTest(.live) { client in
                let port = try #require(client.port)
                let flood = "{\"logs\": [" + (0..<30).map { "\"flood \($0)\"" }.joined(separator: ",") + "]}"
                func post(from source: String, forwardedFor: String) async throws -> Int {
                    let before = service.deviceLogs.recent.count
                    let connection = try ConnectionLimitsTests.RawConnection(port: port, from: source)
                    let head = "POST /wallet/v1/log HTTP/1.1\r\nHost: passmint\r\nX-Forwarded-For: \(forwardedFor)\r\n"
                    let status = await connection.post(head: head, json: flood)
                    #expect(status == "HTTP/1.1 200 OK")
                    return service.deviceLogs.recent.count - before
                }
                let burst = Int(service.deviceLogs.clientBurst)
                // Through the proxy (127.0.0.1): two phones, two budgets.
                #expect(try await post(from: "127.0.0.1", forwardedFor: "198.51.100.1") == burst)
                #expect(try await post(from: "127.0.0.1", forwardedFor: "198.51.100.2") == burst)
                // Straight from another peer: its header names nobody; the peer is budgeted, whatever it claims.
                #expect(try await post(from: "127.0.0.2", forwardedFor: "198.51.100.3") == burst)
                _ = try await post(from: "127.0.0.2", forwardedFor: "198.51.100.4")
                #expect(service.deviceLogs.clientsBudgeted == ["198.51.100.1", "198.51.100.2", "127.0.0.2"])
            }
        }
    }
}
