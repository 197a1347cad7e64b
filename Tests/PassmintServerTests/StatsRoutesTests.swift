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

/// `GET /api/v1/stats`: devices registering, fetching and leaving through Apple's protocol, passes issued and changed
/// through the issuing API, counted per day on a clock the test moves (no sleeps), as JSON and as CSV.
@Suite struct StatsRoutesTests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
    static let day: TimeInterval = 86_400

    /// Issues a pass through the API, as the protocol tests do: its serial and token.
    func issue(_ client: some ServiceClient) async throws -> (serial: String, token: String) {
        try await WebServiceProtocolTests().issue(client)
    }

    @Test(arguments: StoreKind.allCases)
    func devicesThroughTheProtocolGiveTheCounts(_ kind: StoreKind) async throws {
        let clock = ManualClock(date: Date(timeIntervalSince1970: 20_400 * Self.day + 3600))
        try await withStore(kind, clock: clock) { store in
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender(), clock: clock.today)
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                let type = ServiceHarness.passType
                let passes = [try await issue(client), try await issue(client), try await issue(client)]
                func apple(_ pass: (serial: String, token: String)) -> HTTPFields {
                    [.authorization: "ApplePass \(pass.token)", .contentType: "application/json"]
                }
                func register(_ device: String, _ pass: (serial: String, token: String)) async throws {
                    try await client.execute(
                        uri: "/wallet/v1/devices/\(device)/registrations/\(type)/\(pass.serial)", method: .post, headers: apple(pass),
                        body: ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#)
                    ) { #expect($0.status == .created) }
                }
                func unregister(_ device: String, _ pass: (serial: String, token: String)) async throws {
                    try await client.execute(
                        uri: "/wallet/v1/devices/\(device)/registrations/\(type)/\(pass.serial)", method: .delete, headers: apple(pass)
                    ) { #expect($0.status == .ok) }
                }
                func fetch(_ pass: (serial: String, token: String)) async throws {
                    try await client.execute(uri: "/wallet/v1/passes/\(type)/\(pass.serial)", method: .get, headers: apple(pass)) {
                        #expect($0.status == .ok)
                    }
                }
                // Day one: three issued, two installed (one on two devices), one fetched.
                try await register("phone", passes[0])
                try await register("watch", passes[0])
                try await register("phone", passes[1])
                try await fetch(passes[0])
                // Day two: the first pass leaves both devices (one removal); the second changes and is fetched 30 min
                // later, then again two hours later.
                clock.advance(by: .seconds(86_400))
                try await unregister("phone", passes[0])
                try await unregister("watch", passes[0])
                try await client.execute(
                    uri: "/api/v1/passes/\(type)/\(passes[1].serial)", method: .patch, headers: Self.bearer,
                    body: ByteBuffer(string: #"{"data":{"points":7}}"#)
                ) { #expect($0.status == .ok) }
                clock.advance(by: .seconds(1800))
                try await fetch(passes[1])
                clock.advance(by: .seconds(7200))
                try await fetch(passes[1])

                let uri = "/api/v1/stats?from=\(Self.date(20_400))&to=\(Self.date(20_402))&interval=day&template=Loyalty"
                let json = try JSONParser.value(
                    Array(try await client.execute(uri: uri, method: .get, headers: Self.bearer).body.readableBytesView))
                let rows = try #require(json["intervals"]?.arrayValue)
                #expect(rows.count == 2)
                #expect(rows[0]["start"] == "2025-11-08T00:00:00Z")
                #expect(rows[0]["issued"] == 3 && rows[0]["installs"] == 2 && rows[0]["removals"] == 0 && rows[0]["activePasses"] == 2)
                #expect(rows[0]["devices"] == 3 && rows[0]["devicesPerPass"] == 1.5, "phone and watch on one pass, phone on the other")
                #expect(rows[0]["fetched"] == 1 && rows[0]["fetchedWithin1h"] == 1 && rows[0]["updates"] == 0)
                #expect(rows[1]["issued"] == 0 && rows[1]["installs"] == 0 && rows[1]["removals"] == 1 && rows[1]["activePasses"] == 1)
                #expect(rows[1]["devices"] == 1 && rows[1]["devicesPerPass"] == 1)
                #expect(rows[1]["updates"] == 1 && rows[1]["fetched"] == 2 && rows[1]["fetchedWithin1h"] == 1)
                #expect(rows[1]["fetchedWithin24h"] == 2)
                #expect(json["passesOnDevices"] == 1 && json["devices"] == 1 && json["devicesPerPass"] == 1)
                #expect(json["pushes"] != nil, "the node's own counters stay in the answer")

                let csv = try await client.execute(
                    uri: uri, method: .get, headers: [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "text/csv"])
                #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(
                    String(buffer: csv.body)
                        == "start,issued,linkViews,downloads,installs,removals,activePasses,devices,devicesPerPass,updates,fetched,"
                        + "fetchedWithin1h,fetchedWithin24h,pushFailures,deadTokens,googleSaves,googleRemovals\r\n"
                        + "2025-11-08T00:00:00Z,3,0,0,2,0,2,3,1.5,0,1,1,1,0,0,0,0\r\n"
                        + "2025-11-09T00:00:00Z,0,0,0,0,1,1,1,1,1,2,1,2,0,0,0,0\r\n")

                // A later window starts from the passes still active.
                let later = try await client.execute(
                    uri: "/api/v1/stats?from=\(Self.date(20_401))&to=\(Self.date(20_402))", method: .get, headers: Self.bearer)
                let laterRows = try JSONParser.value(Array(later.body.readableBytesView))["intervals"]?.arrayValue
                #expect(laterRows?.map { $0["activePasses"] } == [1])
                #expect(laterRows?.map { $0["devices"] } == [1], "and from the devices still on them")

                for bad in [
                    "interval=week", "from=yesterday", "from=\(Self.date(20_402))&to=\(Self.date(20_400))", "from=2000-01-01&interval=hour",
                    "from=2026-02-30", "to=2026-13-01", "from=2025-11-8",
                ] {
                    let answer = try await client.execute(uri: "/api/v1/stats?\(bad)", method: .get, headers: Self.bearer)
                    #expect(answer.status == .badRequest, "\(bad)")
                }
                // One day: from and to the same day (issue 39).
                let oneDay = try await client.execute(
                    uri: "/api/v1/stats?from=2025-11-09&to=2025-11-09", method: .get, headers: Self.bearer)
                #expect(oneDay.status == .ok, "\(String(buffer: oneDay.body))")
                let oneDayRows = try JSONParser.value(Array(oneDay.body.readableBytesView))["intervals"]?.arrayValue
                #expect(oneDayRows?.map { $0["start"] } == ["2025-11-09T00:00:00Z"])
                #expect(try await client.execute(uri: uri, method: .get).status == .unauthorized)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theAddPageAndTheDownloadLinkAreCounted(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var configuration = try ServiceHarness.configuration()
            configuration.linkSecret = PassLinksTests.secret
            let core = ServiceCore(configuration: configuration, store: store, push: RecordingPushSender(), logger: Logger(label: "t"))
            try await buildApplication(core: core, logger: .init(label: "links")).serviceTest(.router) { client in
                let (_, download, add) = try await SharingRoutesTests.issue(client)
                for link in [add, add, download] {
                    #expect(try await client.execute(uri: SharingRoutesTests.local(link), method: .get).status == .ok)
                }
                let json = try JSONParser.value(
                    Array(try await client.execute(uri: "/api/v1/stats", method: .get, headers: Self.bearer).body.readableBytesView))
                let rows = try #require(json["intervals"]?.arrayValue)
                func total(_ key: String) -> Int { rows.reduce(0) { $0 + ($1[key]?.numberValue?.intValue ?? 0) } }
                #expect(total("issued") == 1 && total("linkViews") == 2 && total("downloads") == 1 && total("installs") == 0)
            }
        }
    }

    static func date(_ day: Int) -> String { Date(timeIntervalSince1970: Double(day) * Self.day).formatted(Date.ISO8601FormatStyle()) }
}
