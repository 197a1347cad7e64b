import Foundation
import Logging
import Testing

@testable import PassmintServer

/// The device log endpoint budgets each client by its address (the hardening issue's item 11): a phone that floods it
/// cannot keep the others' messages out. Over real connections from two loopback addresses.
@Suite struct DeviceLogLimitTests {
    @Test func aFloodingClientUsesUpOnlyItsOwnBudget() async throws {
        try await ConnectionLimitsTests().withService(ConnectionLimits()) { service, _, port in
            let flood = (0..<50).map { "\"flood \($0)\"" }.joined(separator: ",")
            let noisy = try ConnectionLimitsTests.RawConnection(port: port, from: "127.0.0.1")
            #expect(await noisy.post("/wallet/v1/log", json: "{\"logs\": [\(flood)]}") == "HTTP/1.1 200 OK")
            let fromNoisy = service.deviceLogs.recent.filter { $0.hasPrefix("flood") }.count
            #expect(fromNoisy == Int(service.deviceLogs.clientBurst), "one client gets its own burst, not everyone's")
            let other = try ConnectionLimitsTests.RawConnection(port: port, from: "127.0.0.2")
            #expect(await other.post("/wallet/v1/log", json: "{\"logs\": [\"from another phone\"]}") == "HTTP/1.1 200 OK")
            #expect(service.deviceLogs.recent.last == "from another phone", "another client's message still gets through")
        }
    }
}
