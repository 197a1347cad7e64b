import Foundation
import Passmint

/// The latest version (`latest.*`), the log endpoint and personalization.
extension ServiceCheckRun {
    /// `latest.unauthorized`: without a token, and with a wrong one, 401.
    mutating func unauthorizedLatest() async {
        let id = "latest.unauthorized"
        guard let withNone = await call(id, "latest", .latest, latestPath),
            let withWrong = await call(id, "latest", .latest, latestPath, token: "wrong" + randomHex(12))
        else { return }
        for exchange in [withNone, withWrong] where exchange.status != WalletWebService.Status.unauthorized {
            fail(
                id, "the latest version without the \(noun)'s token must answer \(WalletWebService.Status.unauthorized)", exchange,
                fix:
                    "compare the \(kind.authorizationScheme) token with the \(noun)'s authenticationToken; answer 401 when it is missing or differs"
            )
            return
        }
        pass(id, "no token and a wrong token were refused with 401", withWrong)
    }

    /// `latest.ok`, `latest.content-type`, `latest.last-modified`, `latest.verifies`, `latest.same-document`,
    /// `latest.not-modified`.
    mutating func latest() async {
        guard let exchange = await call("latest.ok", "latest", .latest, latestPath, token: target.token, times: options.repeatCount) else {
            return
        }
        guard exchange.status == WalletWebService.Status.latest else {
            fail(
                "latest.ok", "the latest version must answer \(WalletWebService.Status.latest) with the \(noun)", exchange,
                fix: "send the signed \(noun)")
            for id in ["latest.content-type", "latest.last-modified", "latest.verifies", "latest.same-document", "latest.not-modified"] {
                skip(id, "the latest version was not sent")
            }
            return
        }
        pass("latest.ok", "the latest version answered \(WalletWebService.Status.latest)", exchange)
        let type = exchange.header("Content-Type") ?? ""
        if type.split(separator: ";").first.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) == kind.mimeType {
            pass("latest.content-type", "Content-Type is \(kind.mimeType)", exchange)
        } else {
            fail(
                "latest.content-type", "Content-Type must be \(kind.mimeType)", exchange,
                fix: "send the \(noun) as Content-Type: \(kind.mimeType)")
        }
        let modified = exchange.header("Last-Modified")
        if let modified, HTTPDate.parse(modified) != nil {
            lastModified = modified
            pass("latest.last-modified", "Last-Modified is an HTTP-date: \(modified)", exchange)
        } else {
            fail(
                "latest.last-modified", modified == nil ? "the answer has no Last-Modified" : "Last-Modified is not an HTTP-date", exchange,
                fix: "send Last-Modified: the time of the \(noun)'s last change as an HTTP-date (e.g. Sun, 06 Nov 1994 08:49:37 GMT)")
        }
        verify(exchange)
        await notModified()
    }

    /// `latest.verifies` (the checks of `passmint verify`) and `latest.same-document` (type, identifier,
    /// webServiceURL and token those the device holds).
    mutating func verify(_ exchange: DeviceExchange) {
        let report =
            kind == .pass
            ? PassVerifier(
                root: options.root, knownIntermediates: AppleCertificates.wwdrIntermediates.map(\.certificate),
                lintOptions: LintOptions(allowHTTPWebService: options.allowHTTP)
            ).verify(exchange.body, source: "the latest version")
            : OrderVerifier(root: options.root).verify(exchange.body, source: "the latest version")
        let failures = report.checks.filter { $0.status == .failed }.map { "\($0.name): \($0.detail)" }
        let errors = report.lint.filter { $0.severity == .error }.map(\.description)
        judge(
            "latest.verifies", exchange, ok: failures.isEmpty && errors.isEmpty,
            passed: "the \(noun) verifies (archive, manifest, signature, chain, lint)",
            rule: "the \(noun) does not verify: " + (failures + errors).prefix(3).joined(separator: "; "),
            fix: "run passmint verify on the \(noun) the service sends and fix what it reports")
        let name = kind == .pass ? "pass.json" : "order.json"
        let entries = (try? ZipArchive.read(exchange.body, source: "latest")) ?? []
        if entries.contains(where: { $0.name == "personalization.json" }) { personalizes = true }
        guard let entry = entries.first(where: { $0.name == name }),
            let json = (try? JSONParser.value(entry.bytes))?.objectValue
        else {
            fail("latest.same-document", "the answer holds no readable \(name)", exchange, fix: "send the signed \(noun) archive")
            return
        }
        let expected = [
            (kind.typeIdentifierName, target.typeIdentifier), (kind.identifierName, target.identifier),
            ("webServiceURL", target.documentURL), ("authenticationToken", target.token),
        ]
        let differing = expected.filter { json[$0.0]?.stringValue != $0.1 }.map(\.0)
        if differing.isEmpty {
            pass("latest.same-document", "the \(noun) keeps its type, identifier, webServiceURL and token", exchange)
        } else {
            fail(
                "latest.same-document", "the \(noun) sent differs in \(differing.joined(separator: ", "))", exchange,
                fix:
                    "send the version of the same \(noun): its \(kind.identifierName) and authenticationToken never change, and a new webServiceURL moves its devices away"
            )
        }
    }

    /// `latest.not-modified`: `If-Modified-Since` with the `Last-Modified` just sent gets 304 without a body.
    mutating func notModified() async {
        let id = "latest.not-modified"
        guard let lastModified else { return skip(id, "no Last-Modified to send back") }
        guard
            let exchange = await call(
                id, "latest 304", .latest, latestPath, token: target.token, headers: [("If-Modified-Since", lastModified)],
                times: options.repeatCount)
        else { return }
        if exchange.status == WalletWebService.Status.notModified && exchange.body.isEmpty {
            pass(id, "If-Modified-Since with the Last-Modified sent answered 304 without a body", exchange)
        } else {
            fail(
                id, "If-Modified-Since with the Last-Modified just sent must answer \(WalletWebService.Status.notModified) without a body",
                exchange,
                fix: "answer 304 Not Modified when the \(noun) has not changed since If-Modified-Since: devices fetch it whole otherwise")
        }
    }

    /// `log.accepts`: the log endpoint answers 200 for `{"logs": [...]}`.
    mutating func log() async {
        let id = "log.accepts"
        let body = LogBody(logs: ["passmint check-service: a test message from device \(device)"]).json
        guard let exchange = await call(id, "log", .log, WalletRoute.log.path(kind), body: body) else { return }
        judge(
            id, exchange, ok: exchange.status == WalletWebService.Status.logged,
            passed: "the log endpoint answered \(WalletWebService.Status.logged)",
            rule: "the log endpoint must answer \(WalletWebService.Status.logged)",
            fix: "accept POST v1/log with \(LogBody.shape) and answer 200")
    }

    /// `personalize.endpoint`: the pass holds `personalization.json`, so the personalize endpoint must exist. A real
    /// sign-up is not sent (the first one wins, and it would be the checker's): a body without `personalizationToken`
    /// must be refused as a bad request, not as a missing endpoint.
    mutating func personalizeEndpoint() async {
        let id = "personalize.endpoint"
        let path = WalletRoute.personalize.path(kind, type: target.typeIdentifier, serial: target.identifier)
        guard let exchange = await call(id, "personalize", .personalize, path, body: ["requiredPersonalizationInfo": [:]]) else { return }
        judge(
            id, exchange, ok: exchange.status == 400,
            passed: "the personalize endpoint refused a body without personalizationToken with 400",
            rule: "the personalize endpoint must answer a body without personalizationToken with 400",
            fix: "serve POST v1/passes/{type}/{serial}/personalize for passes with personalization.json")
    }
}
