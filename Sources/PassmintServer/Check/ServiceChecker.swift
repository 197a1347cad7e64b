import AsyncHTTPClient
import Foundation
import Passmint

/// `passmint check-service`: calls a pass or order web service as a device holding the document does and checks each
/// answer against Apple's protocol (``WalletWebService``, the definition the service's own routes answer by). It
/// registers a device library identifier made for the run (random) and removes its registrations at the end.
/// The checks and how to fix each failure: docs/check-service.md.
package struct ServiceChecker: Sendable {
    package let target: ServiceCheckTarget
    package let options: ServiceCheckOptions

    package init(target: ServiceCheckTarget, options: ServiceCheckOptions = .init()) {
        self.target = target
        self.options = options
    }

    package func run() async -> ServiceCheckReport {
        var report = ServiceCheckReport(target: target)
        guard checkAddress(&report) else { return report }
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        var run = ServiceCheckRun(
            client: DeviceClient(http: http, target: target, marks: options.headers, timeout: options.timeout), target: target,
            options: options, report: report)
        await run.all()
        try? await http.shutdown()
        return run.report
    }

    /// `url.https`, `url.no-version` (of the document's URL and, when it differs, the one called), `token.length`: false
    /// when the service must not be called (http without ``ServiceCheckOptions/allowHTTP``, or no URL at all).
    package func checkAddress(_ report: inout ServiceCheckReport) -> Bool {
        var callable = true
        for url in options.loopback ? [target.documentURL] : Set([target.documentURL, target.serviceURL]).sorted() {
            let lower = url.lowercased()
            if lower.hasPrefix("https://"), URL(string: url)?.host != nil {
                report.add(.init(id: "url.https", status: .passed, detail: "\(url) uses https"))
            } else if lower.hasPrefix("http://"), URL(string: url)?.host != nil, options.allowHTTP {
                report.add(
                    .init(id: "url.https", status: .warning, detail: "\(url) uses http (allowed by --allow-http: development devices only)")
                )
            } else {
                callable = callable && url != target.serviceURL
                report.add(
                    .init(
                        id: "url.https", status: .failed, detail: "\(url) is not an https URL: Wallet calls only https services", sent: url,
                        fix: options.loopback
                            ? "serve the web service over https and give that URL as --public-url"
                            : lower.hasPrefix("http://")
                                ? "serve the web service over https (or pass --allow-http to check a development service)"
                                : "write webServiceURL as https://host/path"))
            }
            var path = URL(string: url)?.path ?? ""
            while path.hasSuffix("/") { path.removeLast() }
            if path.split(separator: "/").last == Substring(WalletWebService.version) {
                report.add(
                    .init(
                        id: "url.no-version", status: .failed,
                        detail: "\(url) ends with /\(WalletWebService.version): devices add it themselves",
                        sent: url, fix: "remove the trailing /\(WalletWebService.version) from webServiceURL"))
            } else {
                report.add(.init(id: "url.no-version", status: .passed, detail: "\(url) does not end with /\(WalletWebService.version)"))
            }
        }
        if !callable { return false }
        if target.token.count >= WalletWebService.minimumTokenLength {
            report.add(.init(id: "token.length", status: .passed, detail: "authenticationToken has \(target.token.count) characters"))
        } else {
            report.add(
                .init(
                    id: "token.length", status: .failed,
                    detail:
                        "authenticationToken has \(target.token.count) characters; Wallet needs at least \(WalletWebService.minimumTokenLength)",
                    fix: "issue the document with a token of at least \(WalletWebService.minimumTokenLength) random characters"))
        }
        return true
    }
}
