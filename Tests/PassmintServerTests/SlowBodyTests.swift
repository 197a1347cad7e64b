import Foundation
import Testing

@testable import PassmintServer

/// Slow request bodies cannot hold the service's connections (issue 32, item 2: 220 connections each sending a head and
/// then a body byte every 2 s kept `--max-connections 200` full): a body has a deadline, a stalled body can be closed
/// to make room like an idle connection, and one address may hold only so many connections. Over real sockets.
@Suite struct SlowBodyTests {
    typealias RawConnection = ConnectionLimitsTests.RawConnection

    /// A request head announcing a body of 1,000 bytes, and its first byte.
    static let slowHead =
        "POST /wallet/v1/log HTTP/1.1\r\nHost: passmint\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"

    @Test func aBodyTrickledInIsClosedAtTheBodyDeadline() async throws {
        var limits = ConnectionLimits()
        limits.bodyTimeout = .milliseconds(300)
        try await ConnectionLimitsTests().withService(limits) { _, _, port in
            // A whole body within the deadline is answered.
            #expect(await (try RawConnection(port: port)).post("/wallet/v1/log", json: "{\"logs\": [\"hello\"]}") == "HTTP/1.1 200 OK")
            let slow = try RawConnection(port: port)
            slow.send(Self.slowHead)
            var closed = false
            // A body byte every 100 ms (never idle for the idle timeout); bounded at 20 s against a hang.
            for _ in 0..<200 where !closed {
                slow.send(" ")
                closed = await slow.closedByServer(within: 100)
            }
            #expect(closed, "the server closed the connection whose body never ended")
            #expect(await (try RawConnection(port: port)).get("/health") == "HTTP/1.1 200 OK")
        }
    }

    @Test func oneAddressMayOpenOnlyItsShareOfConnections() async throws {
        var limits = ConnectionLimits()
        limits.maximumConnectionsPerAddress = 4
        try await ConnectionLimitsTests().withService(limits) { _, _, port in
            var slow: [RawConnection] = []
            for _ in 0..<7 {
                let connection = try RawConnection(port: port, from: "127.0.0.3")
                connection.send(Self.slowHead)
                slow.append(connection)
                _ = await connection.closedByServer(within: 20)  // registered before the next one opens
            }
            let closed = await ConnectionLimitsTests.closedCount(slow, atLeast: 3)
            #expect(closed == 3, "7 connections from one address with room for 4: \(closed) closed")
            // Another address is served meanwhile.
            #expect(await (try RawConnection(port: port, from: "127.0.0.4")).get("/health") == "HTTP/1.1 200 OK")
        }
    }

    @Test func stalledBodiesMakeRoomForAClientThatAsks() async throws {
        var limits = ConnectionLimits()
        limits.maximumConnections = 8
        limits.maximumConnectionsPerAddress = 4
        try await ConnectionLimitsTests().withService(limits) { _, _, port in
            var attack: [RawConnection] = []
            for address in ["127.0.0.5", "127.0.0.6", "127.0.0.7"] {
                for _ in 0..<4 {
                    let connection = try RawConnection(port: port, from: address)
                    connection.send(Self.slowHead)
                    attack.append(connection)
                    _ = await connection.closedByServer(within: 20)
                }
            }
            // Every slot holds a stalled body, yet a device is answered: the body idle longest made room.
            for _ in 0..<3 {
                #expect(await (try RawConnection(port: port, from: "127.0.0.1")).get("/health") == "HTTP/1.1 200 OK")
            }
            let closed = await ConnectionLimitsTests.closedCount(attack, atLeast: 12 - 8)
            #expect(closed >= 12 - 8, "\(closed) of 12 stalled bodies closed with room for 8")
        }
    }
}
