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

/// `passmint check-service` (``ServiceChecker``) against Passmint's own service, started in-process on port 0: every
/// check passes, on SQLite and on PostgreSQL.
@Suite struct CheckServiceTests {
    /// How long one of the checker's calls may take: ``TestEvents/bound``, a bound against a hang (the whole suite on
    /// two cores can hold an answer longer than the command's own 30 s).
    static let patience = Duration.seconds(TestEvents.bound)

    /// A live service with one issued pass (`rewards`: of the personalizable Rewards template): the checker's target
    /// (called at the local port, over http) and the port.
    static func withIssuedPass(
        _ kind: StoreKind, rewards: Bool = false, _ body: @Sendable (ServiceCheckTarget, _ port: Int) async throws -> Void
    ) async throws {
        try await withIssuedPass(kind, rewards: rewards) { target, port, _, _ in try await body(target, port) }
    }

    /// ``withIssuedPass(_:rewards:_:)`` with the service's core and store too.
    static func withIssuedPass(
        _ kind: StoreKind, rewards: Bool = false,
        _ body: @Sendable (ServiceCheckTarget, _ port: Int, ServiceCore, any PassStore) async throws -> Void
    ) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "check")).serviceTest(.live) { client in
                let serial = unique("C")
                let issued = try await client.execute(
                    uri: "/api/v1/passes", method: .post,
                    headers: [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"],
                    body: rewards ? PersonalizationTests.rewardsBody(serial: serial) : try ServiceHarness.issueBody(serial: serial))
                #expect(issued.status == .created)
                let token = try #require(try JSONParser.value(Array(issued.body.readableBytesView))["authenticationToken"]?.stringValue)
                let port = try #require(client.port)
                let target = ServiceCheckTarget(
                    kind: .pass, serviceURL: "http://127.0.0.1:\(port)/wallet", token: token, typeIdentifier: ServiceHarness.passType,
                    identifier: serial, documentURL: ServiceHarness.publicURL, personalizes: rewards)
                try await body(target, port, service, store)
            }
        }
    }

    static func describe(_ report: ServiceCheckReport) -> String {
        report.results.filter { $0.status == .failed }.flatMap(\.lines).joined(separator: "\n")
    }

    @Test(arguments: StoreKind.allCases) func everyPassCheckPassesAgainstPassmint(_ kind: StoreKind) async throws {
        try await Self.withIssuedPass(kind) { target, _ in
            let report = await ServiceChecker(target: target, options: .init(allowHTTP: true, timeout: Self.patience)).run()
            #expect(report.failedIDs.isEmpty, "\(Self.describe(report))")
            let ran = Set(report.results.filter { $0.status == .passed }.map(\.id))
            let expected: Set<String> = [
                "url.https", "url.no-version", "token.length", "register.unauthorized", "poll.unknown-device", "register.created",
                "register.again", "register.no-push-token", "poll.list", "poll.since", "poll.wrong-type", "latest.unauthorized",
                "latest.ok",
                "latest.content-type", "latest.last-modified", "latest.verifies", "latest.same-document", "latest.not-modified",
                "log.accepts", "unregister.ok", "unregister.poll", "unregister.again", "poll.no-content",
            ]
            #expect(expected.subtracting(ran).isEmpty, "not passed: \(expected.subtracting(ran))")
        }
    }

    /// The change command is a real one: curl changes the pass through the service's API.
    @Test func afterAChangeTheDeviceSeesIt() async throws {
        try await Self.withIssuedPass(.sqlite) { target, port in
            let command =
                "curl -sS -f -X PATCH -H 'Authorization: Bearer \(ServiceHarness.apiKey)' -H 'Content-Type: application/json' "
                + "--data '{\"data\":{\"points\":4242}}' http://127.0.0.1:\(port)/api/v1/passes/\(target.typeIdentifier)/\(target.identifier)"
            let report = await ServiceChecker(
                target: target, options: .init(allowHTTP: true, timeout: Self.patience, repeatCount: 3, changeCommand: command)
            ).run()
            #expect(report.failedIDs.isEmpty, "\(Self.describe(report))")
            let passed = Set(report.results.filter { $0.status == .passed }.map(\.id))
            #expect(passed.isSuperset(of: ["change.command", "change.poll", "change.latest"]))
            #expect(report.timings.first { $0.call == "poll" }.map { $0.seconds.count >= 3 } == true)
            // A command that fails is named.
            let failing = await ServiceChecker(
                target: target, options: .init(allowHTTP: true, timeout: Self.patience, changeCommand: "exit 3")
            ).run()
            #expect(failing.failedIDs == ["change.command"])
        }
    }

    /// `--second`: a device registered for two passes, which the change command changes one after the other, gets
    /// both when it polls with its tag from before (SQLite and PostgreSQL).
    @Test(arguments: StoreKind.allCases) func aDeviceOfTwoChangedPassesGetsBoth(_ kind: StoreKind) async throws {
        try await Self.withIssuedPass(kind) { target, port in
            let base = "http://127.0.0.1:\(port)/api/v1/passes"
            let key = "-H 'Authorization: Bearer \(ServiceHarness.apiKey)' -H 'Content-Type: application/json'"
            let serial = unique("C2")
            let body = TestEnvironment.temporaryFolder("check-second").appendingPathComponent("issue.json")
            try Data(try ServiceHarness.issueBody(serial: serial).readableBytesView).write(to: body)
            // Off the cooperative pool: curl waits for this process's own service, whose handlers need the pool.
            let issued = try await offPool {
                Result {
                    try TestEnvironment.run(
                        "/bin/sh", ["-c", "curl -sS -f -X POST \(key) -H 'Accept: application/json' --data @\(body.path) \(base)"])
                }
            }.get()
            let token = try #require(try JSONParser.value(Array(issued.stdout.utf8))["authenticationToken"]?.stringValue, "\(issued)")
            var second = target
            second.identifier = serial
            second.token = token
            func patch(_ serial: String, _ points: Int) -> String {
                "curl -sS -f -X PATCH \(key) --data '{\"data\":{\"points\":\(points)}}' \(base)/\(target.typeIdentifier)/\(serial) >/dev/null"
            }
            let command = patch(target.identifier, 11) + " && " + patch(serial, 22)
            let report = await ServiceChecker(
                target: target, options: .init(allowHTTP: true, timeout: Self.patience, changeCommand: command, second: second)
            ).run()
            #expect(report.failedIDs.isEmpty, "\(Self.describe(report))")
            #expect(report.results.contains { $0.id == "change.both" && $0.status == .passed }, "\(report.results.map(\.id))")
            // A change command that changes only the first: the second is named as missing.
            let one = await ServiceChecker(
                target: target,
                options: .init(allowHTTP: true, timeout: Self.patience, changeCommand: patch(target.identifier, 33), second: second)
            ).run()
            #expect(one.failedIDs == ["change.both"], "\(Self.describe(one))")
            #expect(one.results.first { $0.id == "change.both" }?.detail.hasSuffix("was not told about \(serial)") == true)
        }
    }

    /// A pass with personalization.json: the personalize endpoint is there and refuses a body without a token (no
    /// sign-up is made: the pass can still be personalized by its holder). Known from the document given, or learnt
    /// from the latest version the service sends (a check without a document, and `serve --self-check`).
    @Test(arguments: StoreKind.allCases) func thePersonalizeEndpointAnswersAsTheReferenceSays(_ kind: StoreKind) async throws {
        try await Self.withIssuedPass(kind, rewards: true) { target, _ in
            var withoutDocument = target
            withoutDocument.personalizes = false
            for target in [target, withoutDocument] {
                let report = await ServiceChecker(target: target, options: .init(allowHTTP: true, timeout: Self.patience)).run()
                #expect(report.failedIDs.isEmpty, "\(Self.describe(report))")
                #expect(report.results.contains { $0.id == "personalize.endpoint" && $0.status == .passed })
            }
        }
    }

    /// `--ca`: the latest version's chain must verify to the root given; another root fails exactly `latest.verifies`.
    @Test func theLatestVersionVerifiesToTheRootGiven() async throws {
        try await Self.withIssuedPass(.sqlite) { target, _ in
            let root = try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path)
            let trusted = await ServiceChecker(target: target, options: .init(allowHTTP: true, timeout: Self.patience, root: root)).run()
            #expect(trusted.failedIDs.isEmpty, "\(Self.describe(trusted))")
            #expect(trusted.results.contains { $0.id == "latest.verifies" && $0.status == .passed })
            let other = try Certificate(
                contentsOf: TestEnvironment.devChain(team: "ROOTCHECK1").appendingPathComponent("root.pem").path)
            let untrusted = await ServiceChecker(target: target, options: .init(allowHTTP: true, timeout: Self.patience, root: other)).run()
            #expect(untrusted.failedIDs == ["latest.verifies"], "\(Self.describe(untrusted))")
        }
    }

    /// `serve --self-check` (``ServiceSelfCheck``) leaves no trace: its calls carry the service's ``SelfCheckMark``, so
    /// its registration, download and log message write no event (nothing for the statistics or webhooks) and keep no
    /// device log, and no registration is left. The same checks without the mark, or with a guessed one, are counted
    /// like any device's (SQLite and PostgreSQL).
    @Test(arguments: StoreKind.allCases) func theSelfCheckLeavesNoTrace(_ kind: StoreKind) async throws {
        try await Self.withIssuedPass(kind) { target, port, service, store in
            func events() async throws -> [PassEventKind] {
                try await store.events(from: Date(timeIntervalSince1970: 0), to: Date().addingTimeInterval(3600), limit: 10_000)
                    .filter { $0.serialNumber == target.identifier }.map(\.kind)
            }
            let key = PassKey(passTypeIdentifier: target.typeIdentifier, serialNumber: target.identifier)
            let selfCheck = ServiceSelfCheck(
                pass: key, configuration: service.configuration, store: store, mark: service.selfCheckMark, logger: .init(label: "self"))
            let report = try #require(await selfCheck.run(port: port))
            #expect(report.failedIDs.isEmpty, "\(Self.describe(report))")
            #expect(report.results.contains { $0.id == "unregister.poll" && $0.status == .passed })
            #expect(try await events() == [.issued], "the self-check's registration, download and leaving are not events")
            #expect(try await store.registrations(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber).isEmpty)
            #expect(service.deviceLogs.recent.isEmpty, "\(service.deviceLogs.recent)")
            // A device's calls, and calls with a guessed mark, count: the same checks make events and keep the log.
            let guessed = [(SelfCheckMark.headerName.canonicalName, String(repeating: "0", count: service.selfCheckMark.secret.count))]
            let device = await ServiceChecker(target: target, options: .init(allowHTTP: true, timeout: Self.patience, headers: guessed))
                .run()
            #expect(device.failedIDs.isEmpty, "\(Self.describe(device))")
            #expect(try await events() == [.issued, .installed, .fetched, .unregistered, .removed])
            #expect(service.deviceLogs.recent.count == 1)
        }
    }

    @Test func anHTTPServiceFailsTheHTTPSRuleWithoutAllowHTTP() async throws {
        try await Self.withIssuedPass(.sqlite) { target, _ in
            let report = await ServiceChecker(target: target).run()
            #expect(report.failedIDs == ["url.https"])
            #expect(report.results.first { $0.id == "url.https" && $0.status == .failed }?.fix.contains("--allow-http") == true)
            #expect(!report.results.contains { $0.id.hasPrefix("register.") }, "nothing is called")
        }
    }
}

/// The checker against deliberately broken stand-ins (``BrokenWebService``, plain http on port 0, so with
/// `--allow-http`): each breakage is found, and named by exactly the checks that should find it.
@Suite struct CheckServiceBreakageTests {
    /// The checker's report on a stand-in with `breakage` (`change`: with a change command, `POST /change` of the stand-in).
    static func report(_ breakage: BrokenWebService.Breakage, personalizes: Bool = false, change: Bool = false) async throws
        -> ServiceCheckReport
    {
        let service = try BrokenWebService(breakage)
        return try await Application(router: service.router()).serviceTest(.live) { client in
            let port = try #require(client.port)
            let target = service.target(port: port, personalizes: personalizes)
            let command = change ? BrokenWebService.changeCommand(port: port) : nil
            return await ServiceChecker(
                target: target, options: .init(allowHTTP: true, timeout: CheckServiceTests.patience, changeCommand: command)
            ).run()
        }
    }

    static func failures(_ breakage: BrokenWebService.Breakage, change: Bool = false) async throws -> Set<String> {
        try await report(breakage, change: change).failedIDs
    }

    /// A service that takes the connection and never answers: the first call fails after `--timeout`, named as not
    /// answered in time, with the option as its fix (the socket listens but never accepts: the system completes the
    /// connection and holds what is sent).
    @Test func aServiceThatNeverAnswersFailsAfterTheTimeout() async throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        try #require(bound && listen(socket, 16) == 0)
        let target = try BrokenWebService([]).target(port: Int(UInt16(bigEndian: address.sin_port)))
        let report = await ServiceChecker(target: target, options: .init(allowHTTP: true, timeout: .milliseconds(300))).run()
        let register = try #require(report.results.first { $0.status == .failed }, "\(CheckServiceTests.describe(report))")
        #expect(register.id.hasPrefix("register.") && register.detail == "the service did not answer in time", "\(register.lines)")
        #expect(
            register.received.hasPrefix("no whole answer within 0.3 seconds") && register.fix.contains("--timeout"), "\(register.lines)")
    }

    @Test func theStandInFollowingTheProtocolPassesEveryCheck() async throws {
        #expect(try await Self.failures([]) == [])
    }

    /// Each breakage, and the one check that must name it.
    static let breakages: [(BrokenWebService.Breakage, String)] = [
        (.okForCreated, "register.created"), (.createdAgain, "register.again"), (.acceptsMissingPushToken, "register.no-push-token"),
        (.okForNoContent, "poll.no-content"), (.unknownDeviceNotFound, "poll.unknown-device"), (.ignoresType, "poll.wrong-type"),
        (.ignoresTag, "poll.since"), (.numericTag, "poll.list"), (.neverNotModified, "latest.not-modified"),
        (.wrongContentType, "latest.content-type"), (.noLogEndpoint, "log.accepts"), (.noContentForUnregister, "unregister.ok"),
        (.keepsUnregistered, "unregister.poll"), (.unregisterUnknownNotFound, "unregister.again"),
    ]

    /// 200 instead of 201, 200 with an empty list instead of 204, never 304, every pass for any tag, lastUpdated a
    /// number, and the rest of ``breakages``: each is found by exactly its check, and no other check fails.
    @Test(arguments: breakages) func eachBreakageIsNamedByItsCheck(_ breakage: BrokenWebService.Breakage, _ check: String) async throws {
        let report = try await Self.report(breakage)
        #expect(report.failedIDs == [check], "\(CheckServiceTests.describe(report))")
        // The result names what was sent, what came back and the fix.
        let failed = try #require(report.results.first { $0.status == .failed })
        #expect(!failed.sent.isEmpty && !failed.received.isEmpty && !failed.fix.isEmpty, "\(failed.lines)")
    }

    /// A service that accepts any token everywhere fails both rules about a wrong token; one that accepts it at one
    /// route only fails that route's rule.
    @Test func aWrongTokenAccepted() async throws {
        #expect(try await Self.failures(.acceptsWrongToken) == ["register.unauthorized", "latest.unauthorized"])
        #expect(try await Self.failures(.registersWithWrongToken) == ["register.unauthorized"])
        #expect(try await Self.failures(.sendsWithWrongToken) == ["latest.unauthorized"])
    }

    /// 401 for a wrong token, but the registration stored anyway: the refused device's poll lists the pass.
    @Test func aRefusedRegistrationStored() async throws {
        let report = try await Self.report(.storesRefused)
        #expect(report.failedIDs == ["register.unauthorized"], "\(CheckServiceTests.describe(report))")
        #expect(report.results.contains { $0.id == "register.unauthorized" && $0.detail.contains("was made anyway") })
    }

    /// Without Last-Modified the 304 cannot be asked: `latest.not-modified` is skipped, not failed.
    @Test func noLastModified() async throws {
        let report = try await Self.report(.noLastModified)
        #expect(report.failedIDs == ["latest.last-modified"], "\(CheckServiceTests.describe(report))")
        #expect(report.results.contains { $0.id == "latest.not-modified" && $0.status == .skipped })
    }

    @Test func theLatestVersionWithAnotherWebServiceURL() async throws {
        let report = try await Self.report(.otherWebServiceURL)
        #expect(report.failedIDs == ["latest.same-document"], "\(CheckServiceTests.describe(report))")
        #expect(report.results.contains { $0.id == "latest.same-document" && $0.detail.hasSuffix("differs in webServiceURL") })
    }

    /// With a change command: the stand-in that gives a changed pass a new tag and a later Last-Modified passes; one
    /// that keeps the tag fails exactly `change.poll`, one that keeps Last-Modified exactly `change.latest`.
    @Test func afterAChange() async throws {
        let report = try await Self.report([], change: true)
        #expect(report.failedIDs.isEmpty, "\(CheckServiceTests.describe(report))")
        let passed = Set(report.results.filter { $0.status == .passed }.map(\.id))
        #expect(passed.isSuperset(of: ["change.command", "change.poll", "change.latest"]), "\(passed)")
        #expect(try await Self.failures(.changeKeepsTag, change: true) == ["change.poll"])
        #expect(try await Self.failures(.changeKeepsLastModified, change: true) == ["change.latest"])
    }

    /// The rules judged before anything is called: a webServiceURL ending in `/v1`, a token under 16 characters.
    @Test func theAddressAndTheToken() async throws {
        let target = ServiceCheckTarget(
            kind: .pass, serviceURL: "https://passes.example.test/wallet/v1/", token: "0123456789abcde", typeIdentifier: "pass.x",
            identifier: "1")
        var report = ServiceCheckReport(target: target)
        #expect(ServiceChecker(target: target).checkAddress(&report))
        #expect(report.failedIDs == ["url.no-version", "token.length"], "\(report.results.map(\.lines))")
        var fine = target
        fine.serviceURL = "https://passes.example.test/wallet"
        fine.documentURL = fine.serviceURL
        fine.token = "0123456789abcdef"
        var passing = ServiceCheckReport(target: fine)
        #expect(ServiceChecker(target: fine).checkAddress(&passing))
        #expect(passing.failedIDs.isEmpty && passing.results.count == 3, "\(passing.results.map(\.lines))")
    }

    /// A tag with `+`, `:` and spaces is sent percent-encoded: a service that decodes it passes `poll.tag-encoding`; one
    /// that compares it still encoded is found by exactly that check.
    @Test func aTagThatNeedsEncoding() async throws {
        let decoded = try await Self.report(.tagNeedsEncoding)
        #expect(decoded.failedIDs.isEmpty, "\(CheckServiceTests.describe(decoded))")
        #expect(decoded.results.contains { $0.id == "poll.tag-encoding" && $0.status == .passed })
        #expect(decoded.results.contains { $0.id == "poll.tag-encoding" && $0.detail.contains("2026-11-28%2010%3A00%3A00%20%2B01%3A00") })
        #expect(try await Self.failures([.tagNeedsEncoding, .tagNotDecoded]) == ["poll.tag-encoding"])
    }

    /// A pass with personalization.json at a service without the personalize endpoint: exactly `personalize.endpoint`.
    @Test func noPersonalizeEndpoint() async throws {
        let report = try await Self.report([], personalizes: true)
        #expect(report.failedIDs == ["personalize.endpoint"], "\(CheckServiceTests.describe(report))")
    }
}

/// The checker on an order (`AppleOrder`, `ordersModifiedSince`, `orders/{type}/{id}`) against Passmint's own service.
@Suite struct CheckServiceOrderTests {
    @Test(arguments: StoreKind.allCases) func everyOrderCheckPassesAgainstPassmint(_ kind: StoreKind) async throws {
        let (apnsServer, sender) = try OrderHarness.apns()
        defer { apnsServer.shutdown() }
        let clock = try OrderHarness.clock()
        try await withStore(kind, clock: clock) { store in
            let service = try OrderHarness.service(store: store, push: sender, clock: clock)
            try await buildApplication(core: service, logger: .init(label: "check.orders")).serviceTest(.live) { client in
                let id = unique("CO")
                let issued = try await client.execute(
                    uri: "/api/v1/orders", method: .post,
                    headers: [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"],
                    body: try OrderHarness.issueBody(id: id))
                #expect(issued.status == .created, "\(String(buffer: issued.body))")
                let token = try #require(try JSONParser.value(Array(issued.body.readableBytesView))["authenticationToken"]?.stringValue)
                let port = try #require(client.port)
                // The target as `passmint check-service shipment.order` reads it from the order the service sends.
                let latest = try await client.execute(
                    uri: "/wallet/v1/orders/\(OrderHarness.type)/\(id)", method: .get, headers: [.authorization: "AppleOrder \(token)"])
                #expect(latest.status == .ok)
                var target = try ServiceCheckTarget(document: Array(latest.body.readableBytesView), source: "\(id).order")
                #expect(
                    target
                        == ServiceCheckTarget(
                            kind: .order, serviceURL: ServiceHarness.publicURL, token: token, typeIdentifier: OrderHarness.type,
                            identifier: id))
                target.serviceURL = "http://127.0.0.1:\(port)/wallet"
                let command =
                    "curl -sS -f -X PATCH -H 'Authorization: Bearer \(ServiceHarness.apiKey)' -H 'Content-Type: application/json' "
                    + "--data '{\"data\":{\"carrier\":\"UPS\"}}' http://127.0.0.1:\(port)/api/v1/orders/\(OrderHarness.type)/\(id)"
                let report = await ServiceChecker(
                    target: target, options: .init(allowHTTP: true, timeout: CheckServiceTests.patience, changeCommand: command)
                ).run()
                #expect(report.failedIDs.isEmpty, "\(CheckServiceTests.describe(report))")
                let passed = Set(report.results.filter { $0.status == .passed }.map(\.id))
                let expected: Set<String> = [
                    "register.unauthorized", "register.created", "register.again", "poll.list", "poll.since", "latest.unauthorized",
                    "latest.content-type", "latest.verifies", "latest.same-document", "latest.not-modified", "change.poll", "change.latest",
                    "unregister.ok", "unregister.poll", "unregister.again",
                ]
                #expect(expected.subtracting(passed).isEmpty, "not passed: \(expected.subtracting(passed))")
            }
        }
    }
}
