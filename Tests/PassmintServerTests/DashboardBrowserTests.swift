import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// The statistics dashboard in a real browser (headless Chromium, driven over the DevTools protocol by
/// Tests/Browser/check_page.py): a login link made by the API opens it, it loads with no console error and no request
/// but the page, its charts are drawn, and every number on it equals what `GET /api/v1/stats` answers.
@Suite(.enabled(if: TestEnvironment.runsChromiumTests)) struct DashboardBrowserTests {
    static let type = "pass.dev.passmint.example"
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]

    /// Passes issued, viewed, downloaded, installed, removed, changed and fetched over two days of the test's clock.
    static func seed(_ store: any PassStore, _ clock: ManualClock) async throws {
        var passes: [StoredPass] = []
        for index in 0..<5 {
            passes.append(
                try await store.insert(
                    StoredPass(
                        passTypeIdentifier: type, serialNumber: unique("D\(index)"), authenticationToken: "token-0123456789abcdef",
                        template: "Loyalty", dataJSON: #"{"points":1}"#)))
        }
        func event(_ kind: PassEventKind, _ pass: StoredPass, changeAt: Date? = nil) -> PassEvent {
            PassEvent(
                kind: kind, passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber, template: pass.template,
                at: clock.date, changeAt: changeAt)
        }
        try await store.record(passes.prefix(4).map { event(.linkViewed, $0) } + passes.prefix(3).map { event(.downloaded, $0) })
        for (device, pass) in [("phone", passes[0]), ("watch", passes[0]), ("phone", passes[1]), ("tablet", passes[2])] {
            _ = try await store.register(
                deviceLibraryIdentifier: device, pushToken: pushToken(), passTypeIdentifier: type, serialNumber: pass.serialNumber)
        }
        clock.advance(by: .seconds(86_400))
        _ = try await store.unregister(deviceLibraryIdentifier: "tablet", passTypeIdentifier: type, serialNumber: passes[2].serialNumber)
        let change = try await store.update(
            passTypeIdentifier: type, serialNumber: passes[0].serialNumber, dataJSON: #"{"points":2}"#, voided: false)
        clock.advance(by: .seconds(600))
        try await store.record([event(.fetched, passes[0], changeAt: change?.pass.updatedAt)])
    }

    @Test func theDashboardShowsTheNumbersOfTheAPIInChromium() async throws {
        let clock = ManualClock(date: Date(timeIntervalSince1970: 20_400 * 86_400 + 3600))
        try await withStore(.sqlite, clock: clock) { store in
            try await Self.seed(store, clock)
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender(), clock: clock.today)
            try await buildApplication(core: core, logger: .init(label: "dashboard")).serviceTest(.live) { client in
                let port = try #require(client.port)
                let api = try JSONParser.value(
                    Array(try await client.execute(uri: "/api/v1/stats", method: .get, headers: Self.bearer).body.readableBytesView))
                let made = try await client.execute(uri: "/api/v1/dashboard/links", method: .post, headers: Self.bearer)
                #expect(made.status == .created)
                let path = try #require(try JSONParser.value(Array(made.body.readableBytesView))["path"]?.stringValue)
                #expect(try await client.execute(uri: "/dashboard", method: .get).status == .unauthorized, "no key, no cookie")

                let page = try await offPool { Result { try Self.checkPage("http://127.0.0.1:\(port)\(path)") } }
                    .get()
                #expect(page["consoleErrors"] == [], "\(page["consoleErrors"] ?? .null)")
                #expect(page["exceptions"] == [])
                #expect(page["failedRequests"] == [])
                #expect(page["documentStatuses"] == [200])
                for chart in ["#funnel svg", "#active svg", "#removals svg", "#reach svg"] {
                    #expect(page["elements"]?[chart]?["visible"] == true, "\(chart)")
                }
                var shown: [String: String] = [:]
                for field in page["fields"]?.arrayValue ?? [] {
                    if let key = field["key"]?.stringValue, let value = field["value"]?.stringValue { shown[key] = value }
                }
                let rows = try #require(api["intervals"]?.arrayValue)
                func total(_ key: String) -> String { String(rows.reduce(0) { $0 + ($1[key]?.numberValue?.intValue ?? 0) }) }
                let expected: [String: String] = [
                    "funnel.issued": total("issued"), "funnel.linkViews": total("linkViews"), "funnel.downloads": total("downloads"),
                    "funnel.installs": total("installs"), "removals.total": total("removals"), "reach.updates": total("updates"),
                    "reach.fetched": total("fetched"), "reach.within1h": total("fetchedWithin1h"),
                    "reach.within24h": total("fetchedWithin24h"), "devices.passes": api["passesOnDevices"]?.numberValue?.text ?? "",
                    "devices.devices": api["devices"]?.numberValue?.text ?? "",
                ]
                for (key, value) in expected { #expect(shown[key] == value, "\(key)") }
                #expect(expected["funnel.issued"] == "5" && expected["funnel.installs"] == "3" && expected["removals.total"] == "1")
                #expect(expected["reach.within1h"] == "1" && expected["devices.devices"] == "3")
                for row in rows {
                    let day = String(try #require(row["start"]?.stringValue).prefix(10))
                    #expect(shown["active.\(day)"] == row["activePasses"]?.numberValue?.text, "\(day)")
                    #expect(shown["installs.\(day)"] == row["installs"]?.numberValue?.text, "\(day)")
                    #expect(shown["removals.\(day)"] == row["removals"]?.numberValue?.text, "\(day)")
                }
                #expect(shown["active.2025-11-08"] == "3" && shown["active.2025-11-09"] == "2")
            }
        }
    }

    /// Runs check_page.py on `url` (a blocking subprocess: call it off the cooperative pool): the browser's report.
    static func checkPage(_ url: String) throws -> JSONValue {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Browser/check_page.py").path
        let elements = ["#funnel svg", "#active svg", "#removals svg", "#reach svg"].flatMap { ["--element", $0] }
        let result = try TestEnvironment.run("/usr/bin/env", ["python3", script, url, "--fields"] + elements)
        #expect(result.status == 0, "check_page.py failed: \(result.stderr)")
        return try JSONParser.value(Array(result.stdout.utf8))
    }
}
