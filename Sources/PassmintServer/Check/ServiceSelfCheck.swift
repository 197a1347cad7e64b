import Logging
import Passmint
import PassmintStore

/// `passmint serve --self-check <type>/<serial>`: once the server listens, the checks of `passmint check-service`
/// (``ServiceChecker``) against the service itself, over loopback, as a device holding that pass. Each failing check is
/// logged (its rule, what was sent, what came back, how to fix it), then one summary line. It runs beside the server
/// and never holds start-up or serving back; an outcome it cannot reach (the pass missing, the store out of reach) is
/// logged too. Its registrations are the store's like any device's: events of that pass (docs/check-service.md).
struct ServiceSelfCheck: Sendable {
    let pass: PassKey
    let configuration: ServerConfiguration
    let store: any PassStore
    let logger: Logger

    /// Checks the service listening at `port`.
    func run(port: Int) async {
        let named = "\(pass.passTypeIdentifier)/\(pass.serialNumber)"
        let stored: StoredPass?
        do {
            stored = try await store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
        } catch {
            logger.error("self-check not run: the store could not be read", metadata: ["pass": "\(named)", "error": "\(error)"])
            return
        }
        guard let stored else {
            logger.error(
                "self-check not run: \(named) is not in the store: issue it (POST /api/v1/passes), or give --self-check a pass that exists")
            return
        }
        let target = ServiceCheckTarget(
            kind: .pass, serviceURL: Self.loopbackURL(host: configuration.host, port: port) + configuration.pathPrefix,
            token: stored.authenticationToken, typeIdentifier: stored.passTypeIdentifier, identifier: stored.serialNumber,
            documentURL: configuration.publicURL)
        let report = await ServiceChecker(target: target, options: .init(loopback: true)).run()
        let failed = report.results.filter { $0.status == .failed }
        for result in failed {
            logger.error(
                "self-check failed: \(result.id): \(result.detail)",
                metadata: ["sent": "\(result.sent)", "received": "\(result.received)", "fix": "\(result.fix)"])
        }
        if failed.isEmpty {
            logger.notice("self-check passed: \(report.results.count) checks with \(named), every one passed")
        } else {
            logger.error(
                "self-check: \(failed.count) of \(report.results.count) checks with \(named) FAILED: \(failed.map(\.id).joined(separator: ", "))"
            )
        }
    }

    /// `http://127.0.0.1:<port>` for a service listening on every address (or on 127.0.0.1), else its own address.
    static func loopbackURL(host: String, port: Int) -> String {
        switch host {
        case "", "0.0.0.0": "http://127.0.0.1:\(port)"
        case "::": "http://[::1]:\(port)"
        default: host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
        }
    }
}
