import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

@testable import PassmintServer

#if canImport(Glibc)
    import Glibc
#endif

/// Idle and slow connections cannot keep the service from answering (the hardening issue's item 8: 20,000 idle
/// connections made /health time out; 3,000 slowloris connections were never closed), and a 401 costs the same work
/// whether the serial exists or not (item 10).
@Suite struct ConnectionLimitsTests {
    /// A plain TCP connection to the service, for requests no HTTP client would send (its blocking socket calls run
    /// ``offPool(_:)``).
    final class RawConnection: @unchecked Sendable {
        let descriptor: Int32

        /// Connects to the service from `source` (any 127.x.y.z address is this machine's loopback).
        init(port: Int, from source: String = "127.0.0.1") throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        }

        deinit { close(descriptor) }

        func send(_ text: String) { _ = text.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }

        /// Sends a GET of `path` and returns the status line of the answer ("" when none came within 10 s).
        func get(_ path: String) async -> String { await offPool { self.getBlocking(path) } }

        /// Sends a POST of a JSON body to `path` and returns the status line of the answer.
        func post(_ path: String, json body: String) async -> String {
            await post(head: "POST \(path) HTTP/1.1\r\nHost: passmint\r\n", json: body)
        }

        /// Sends `head` (a request line and header lines, each ending in CRLF) with a JSON body, and returns the status
        /// line of the answer.
        func post(head: String, json body: String) async -> String {
            await offPool {
                self.send(head + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
                return self.getBlocking(nil, body: body)
            }
        }

        func closedByServer(within milliseconds: Int32) async -> Bool {
            await offPool { self.closedByServerBlocking(within: milliseconds) }
        }

        private func getBlocking(_ path: String?, body: String? = nil) -> String {
            if let path { send("GET \(path) HTTP/1.1\r\nHost: passmint\r\n\r\n") }
            if let body { send(body) }
            var received: [UInt8] = []
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while !received.contains(UInt8(ascii: "\n")), poll(&entry, 1, Int32(TestEvents.bound * 1000)) == 1 {
                var buffer = [UInt8](repeating: 0, count: 512)
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received += buffer.prefix(count)
            }
            return String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        }

        /// Whether the server closed the connection within `milliseconds` (end of file or a reset).
        private func closedByServerBlocking(within milliseconds: Int32) -> Bool {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, milliseconds) == 1 else { return false }
            var byte: UInt8 = 0
            while true {
                let count = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return true }
                if count < 0 { return false }
            }
        }
    }

    func withService(
        _ limits: ConnectionLimits, _ body: @Sendable (ServiceCore, any ServiceClient, Int) async throws -> Void
    ) async throws {
        try await withStore(.sqlite) { store in
            var configuration = try ServiceHarness.configuration()
            configuration.connections = limits
            let service = ServiceCore(
                configuration: configuration, store: store, push: RecordingPushSender(), logger: Logger(label: "limits"))
            try await buildApplication(core: service, logger: Logger(label: "limits")).serviceTest(.live) { client in
                try await body(service, client, try #require(client.port))
            }
        }
    }

    /// The tests' live client (``LiveClient``) opens a new connection when the service closed its last one for
    /// idling past the header timeout, as a long wait under the whole suite's load can make it.
    @Test func theLiveClientReconnectsAfterItsIdleConnectionWasClosed() async throws {
        var limits = ConnectionLimits()
        // Long enough for a new connection to carry its request before it, under the whole suite's load too.
        limits.headerTimeout = .seconds(5)
        try await withService(limits) { _, client, _ in
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            let live = try #require(client as? LiveClient)
            let opened = live.connectionsOpened
            #expect(await TestEvents.wait { await !live.isConnected }, "the service closed the idle connection")
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            #expect(live.connectionsOpened > opened, "a new connection carried the request")
        }
    }

    @Test func aSlowlorisConnectionIsClosedAfterTheHeaderTimeout() async throws {
        var limits = ConnectionLimits()
        limits.headerTimeout = .seconds(1)
        try await withService(limits) { _, client, port in
            let slow = try RawConnection(port: port)
            slow.send("GET /health HTTP/1.1\r\nHost: passmint\r\n")
            var closed = false
            // A header line every 200 ms, never the blank line that ends the head; bounded at 20 s against a hang.
            for line in 0..<100 where !closed {
                slow.send("X-Slow-\(line): 1\r\n")
                closed = await slow.closedByServer(within: 200)
            }
            #expect(closed, "the server closed the connection whose head never ended")
            // Meanwhile everyone else is answered (on a new connection: the test client's own, idle, was closed too).
            #expect(await (try RawConnection(port: port)).get("/health") == "HTTP/1.1 200 OK")
        }
    }

    @Test func beyondTheLimitTheConnectionIdleLongestMakesRoom() async throws {
        var limits = ConnectionLimits()
        limits.maximumConnections = 8
        try await withService(limits) { _, client, port in
            var idle: [RawConnection] = []
            for _ in 0..<20 {
                idle.append(try RawConnection(port: port))
                // Answered, so registered (and idle since its answer) before the next one opens: the order of the
                // connections is the order of their answers, whatever the machine's load.
                #expect(await idle.last!.get("/health") == "HTTP/1.1 200 OK")
            }
            #expect(await (try RawConnection(port: port)).get("/health") == "HTTP/1.1 200 OK")
            // Connections 9 to 20 and the request each closed the oldest idle one: at least the first 12 are gone.
            let closed = await Self.closedCount(idle.prefix(12), atLeast: 12)
            #expect(closed == 12, "20 idle connections and a request with room for 8: \(closed) of the oldest 12 closed")
            #expect(!(await idle.last!.closedByServer(within: 10)), "the newest idle connection stays")
        }
    }

    @Test func aStrayConnectionCountsAsClosedWhenItGoes() async throws {
        var limits = ConnectionLimits()
        limits.maximumConnections = 4
        try await withService(limits) { _, client, port in
            for _ in 0..<3 {
                let connections = try (0..<3).map { _ in try RawConnection(port: port) }
                _ = await connections.last!.closedByServer(within: 50)
                _ = connections  // closed by the client at the end of the round
            }
            // Nine connections came and went: none is counted as open, so requests keep their room.
            let asking = try (0..<3).map { _ in try RawConnection(port: port) }
            for connection in asking { #expect(await connection.get("/health") == "HTTP/1.1 200 OK") }
        }
    }
}
