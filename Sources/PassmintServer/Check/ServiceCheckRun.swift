import Foundation
import Passmint

/// One run of ``ServiceChecker`` against a callable service: the device identifiers made for it, what earlier answers
/// gave (the tag, `Last-Modified`), the results so far. Steps in the order a device takes them.
struct ServiceCheckRun {
    let client: DeviceClient
    let target: ServiceCheckTarget
    let options: ServiceCheckOptions
    var report: ServiceCheckReport

    /// The device that registers, polls and leaves.
    let device = Self.randomIdentifier()
    /// The device the refused registrations are tried for.
    let refusedDevice = Self.randomIdentifier()
    /// A device that never registers.
    let unknownDevice = Self.randomIdentifier()
    /// The device registered for both documents when there is a second (`change.both`).
    let pairDevice = Self.randomIdentifier()
    let pushToken = randomHex(32)
    /// Devices that may hold a registration, removed at the end.
    var toRemove: Set<String> = []
    /// The tag of the first poll (read leniently: a number's text too, so later checks still run).
    var tag: String?
    /// The `Last-Modified` of the latest version.
    var lastModified: String?
    /// The tag of the pair device's poll before the change.
    var pairTag: String?
    /// The pair device may hold a registration for the second document, removed at the end.
    var pairRegistered = false
    /// Polls that had nothing to list but did not answer 204: one `poll.no-content` result at the end.
    var noContentViolations: [DeviceExchange] = []
    /// The pass holds `personalization.json`: the document given says so, or the latest version sent holds it (a check
    /// without a document, and `serve --self-check`).
    var personalizes: Bool

    init(client: DeviceClient, target: ServiceCheckTarget, options: ServiceCheckOptions, report: ServiceCheckReport) {
        self.client = client
        self.target = target
        self.options = options
        self.report = report
        personalizes = target.personalizes
    }

    var kind: WalletWebService.Kind { target.kind }
    var noun: String { kind == .pass ? "pass" : "order" }

    mutating func all() async {
        await refusedRegistrations()
        await unknownDevicePoll()
        guard await registration() else {
            await cleanUp()
            return
        }
        await missingPushToken()
        await firstPoll()
        await pollSinceTag()
        await otherTypePoll()
        await unauthorizedLatest()
        await latest()
        await log()
        if options.changeCommand != nil { await afterChange() }
        if kind == .pass && personalizes { await personalizeEndpoint() }
        await unregistration()
        noContentResult()
        await cleanUp()
    }

    // MARK: calls

    /// Makes the call (`times` times, for timing; the first answer is returned) and records its durations under
    /// `name`; a failure to reach the service becomes a failed `id`.
    mutating func call(
        _ id: String, _ name: String, _ route: WalletRoute, _ path: String, token: String? = nil, authorization: String? = nil,
        body: JSONValue? = nil, headers: [(String, String)] = [], times: Int = 1
    ) async -> DeviceExchange? {
        var first: DeviceExchange?
        for _ in 0..<max(times, 1) {
            do {
                let exchange = try await client.call(route, path, token: token, authorization: authorization, body: body, headers: headers)
                report.time(name, exchange.seconds)
                if first == nil { first = exchange }
            } catch {
                if first == nil {
                    report.add(
                        .init(
                            id: id, status: .failed,
                            detail: error.timedOut ? "the service did not answer in time" : "the service could not be reached",
                            sent: error.sent, received: error.message,
                            fix: error.timedOut
                                ? "check that the service at \(target.serviceURL) answers; if it is only slow, give it longer (--timeout)"
                                : "check that the service runs at \(target.serviceURL) and its TLS certificate is trusted"))
                    return nil
                }
            }
        }
        return first
    }

    mutating func pass(_ id: String, _ detail: String, _ exchange: DeviceExchange? = nil) {
        report.add(.init(id: id, status: .passed, detail: detail, sent: exchange?.sent ?? "", received: exchange?.received ?? ""))
    }

    mutating func fail(_ id: String, _ detail: String, _ exchange: DeviceExchange?, fix: String) {
        report.add(.init(id: id, status: .failed, detail: detail, sent: exchange?.sent ?? "", received: exchange?.received ?? "", fix: fix))
    }

    /// Passes `id` when `ok`, else fails it with `rule` (what the protocol asks) and `fix`.
    mutating func judge(_ id: String, _ exchange: DeviceExchange, ok: Bool, passed: String, rule: String, fix: String) {
        if ok { pass(id, passed, exchange) } else { fail(id, rule, exchange, fix: fix) }
    }

    mutating func skip(_ id: String, _ why: String) { report.add(.init(id: id, status: .skipped, detail: why)) }

    /// The registration path of `device` for the target's document (or `document`).
    func registrationPath(_ device: String, of document: ServiceCheckTarget? = nil) -> String {
        let document = document ?? target
        return WalletRoute.register.path(kind, device: device, type: document.typeIdentifier, serial: document.identifier)
    }

    /// The poll path of `device` for `type`, with the tag encoded as a device encodes it.
    func pollPath(_ device: String, type: String? = nil, since: String? = nil) -> String {
        var path = WalletRoute.poll.path(kind, device: device, type: type ?? target.typeIdentifier)
        if let since { path += "?" + kind.sinceParameter + "=" + WalletRoute.percentEncoded(since) }
        return path
    }

    var latestPath: String { WalletRoute.latest.path(kind, type: target.typeIdentifier, serial: target.identifier) }

    /// The identifiers a poll's answer lists, read leniently (any status, any tag type); empty when it lists none.
    static func listed(_ exchange: DeviceExchange, _ kind: WalletWebService.Kind) -> [String] {
        guard exchange.status == 200, let object = (try? JSONParser.value(exchange.body))?.objectValue,
            let list = object[UpdatedList.identifiersKey(kind)]?.arrayValue
        else { return [] }
        return list.compactMap(\.stringValue)
    }

    /// For a poll that must list nothing of the target: notes a 200 that lists nothing (that must be a 204), and
    /// answers whether the target's identifier was listed.
    mutating func listsTarget(_ exchange: DeviceExchange) -> Bool {
        let listed = Self.listed(exchange, kind)
        if exchange.status != WalletWebService.Status.noChanges, listed.isEmpty, (200..<300).contains(exchange.status) {
            noContentViolations.append(exchange)
        }
        return listed.contains(target.identifier)
    }

    mutating func noContentResult() {
        guard let first = noContentViolations.first else {
            pass("poll.no-content", "every poll with nothing to list answered \(WalletWebService.Status.noChanges) without a body")
            return
        }
        fail(
            "poll.no-content",
            "\(noContentViolations.count) poll(s) with nothing to list did not answer \(WalletWebService.Status.noChanges)", first,
            fix:
                "answer \(WalletWebService.Status.noChanges) No Content, without a body, when no \(noun) of the type changed for the device"
        )
    }

    /// Removes what the run may have left registered; answers are not checked.
    mutating func cleanUp() async {
        for device in toRemove.sorted() {
            _ = try? await client.call(.unregister, registrationPath(device), token: target.token)
        }
        toRemove = []
        if pairRegistered, let second = options.second {
            _ = try? await client.call(.unregister, registrationPath(pairDevice, of: second), token: second.token)
            pairRegistered = false
        }
    }

    /// A device library identifier made for this run: `passmintcheck` and 32 hex digits.
    static func randomIdentifier() -> String { "passmintcheck" + randomHex(16) }
}
