package import Logging
import Passmint
package import PassmintStore

/// `passmint serve --self-check <type>/<serial>`: once the server listens, the checks of `passmint check-service`
/// (``ServiceChecker``) against the service itself, over loopback, as a device holding that pass. Each failing check is
/// logged (its rule, what was sent, what came back, how to fix it), then one summary line. It runs beside the server
/// and never holds start-up or serving back; an outcome it cannot reach (the pass missing, the store out of reach) is
/// logged too. Its calls carry the service's ``SelfCheckMark``: they leave no events (so nothing in the statistics or
/// webhooks), no install, no kept device log, and its registrations are removed at the end (docs/check-service.md).
package struct ServiceSelfCheck: Sendable {
    let pass: PassKey
    let configuration: ServerConfiguration
    let store: any PassStore
    let mark: SelfCheckMark
    let logger: Logger

    package init(pass: PassKey, configuration: ServerConfiguration, store: any PassStore, mark: SelfCheckMark, logger: Logger) {
        self.pass = pass
        self.configuration = configuration
        self.store = store
        self.mark = mark
        self.logger = logger
    }

    /// Checks the service listening at `port`; the report (nil when the check could not run).
    @discardableResult
    package func run(port: Int) async -> ServiceCheckReport? {
        let named = "\(pass.passTypeIdentifier)/\(pass.serialNumber)"
        let stored: StoredPass?
        do {
            stored = try await store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
        } catch {
            logger.error("self-check not run: the store could not be read", metadata: ["pass": "\(named)", "error": "\(error)"])
            return nil
        }
        guard let stored else {
            logger.error(
                "self-check not run: \(named) is not in the store: issue it (POST /api/v1/passes), or give --self-check a pass that exists")
            return nil
        }
        let target = ServiceCheckTarget(
            kind: .pass, serviceURL: Self.loopbackURL(host: configuration.host, port: port) + configuration.pathPrefix,
            token: stored.authenticationToken, typeIdentifier: stored.passTypeIdentifier, identifier: stored.serialNumber,
            documentURL: configuration.publicURL)
        let report = await ServiceChecker(target: target, options: .init(loopback: true, headers: [mark.header])).run()
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
        return report
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
