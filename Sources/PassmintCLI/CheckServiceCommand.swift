import ArgumentParser
import Foundation
import Passmint
import PassmintServer

/// `passmint check-service`: checks a pass or order web service as a device holding the document would
/// (``ServiceChecker``; the checks are described in docs/check-service.md).
struct CheckServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-service",
        abstract: "Check a pass (or order) web service against Apple's protocol, as a device would.",
        discussion: """
            Reads webServiceURL, authenticationToken, the type identifier and the serial number (order identifier) from \
            the .pkpass or .order, or takes them from --service-url, --token and --pass-type-id/--serial \
            (--order-type-id/--order-id), then registers a device made for the run, polls, fetches the latest version \
            (checked as passmint verify checks it), reports to the log endpoint and unregisters. Each result names the \
            rule (see docs/check-service.md), what was sent, what came back and how to fix it. Exit status 0 only when \
            every check passes.

            --change-command runs a shell command that changes the document at the issuer (a curl to its API) and then \
            checks what a device must see: the poll with the earlier tag lists it, the new version has a later \
            Last-Modified; with --second, a device registered for both documents, which the command changes one after \
            the other, gets both for its tag from before. --repeat N makes each read-only call N times and prints the \
            p50 and p99 of its duration.
            """)

    @Argument(help: ArgumentHelp("The .pkpass or .order whose service to check (or give the options below).", valueName: "document"))
    var document: String?

    @Option(
        help: ArgumentHelp("The webServiceURL (without /v1); with a document, the address to call instead of its own.", valueName: "url"))
    var serviceURL: String?

    @Option(help: ArgumentHelp("The document's authenticationToken.", valueName: "token"))
    var token: String?

    @Option(name: .customLong("pass-type-id"), help: ArgumentHelp("The pass type identifier.", valueName: "pass.…"))
    var passTypeID: String?

    @Option(help: ArgumentHelp("The pass's serial number.", valueName: "serial"))
    var serial: String?

    @Option(name: .customLong("order-type-id"), help: ArgumentHelp("Orders: the order type identifier.", valueName: "order.…"))
    var orderTypeID: String?

    @Option(name: .customLong("order-id"), help: ArgumentHelp("Orders: the order identifier.", valueName: "id"))
    var orderID: String?

    @Flag(help: "Check an http:// service (development devices only; Wallet otherwise requires https).")
    var allowHTTP = false

    @Option(help: ArgumentHelp("Seconds one call may take before the service counts as not reached.", valueName: "seconds"))
    var timeout = 30

    @Option(help: ArgumentHelp("Make each read-only call this many times and print p50/p99.", valueName: "N"))
    var `repeat` = 1

    @Option(
        help: ArgumentHelp(
            "A shell command that changes the document at the issuer; then the after-change checks run.", valueName: "command"))
    var changeCommand: String?

    @Option(
        help: ArgumentHelp(
            "A second .pkpass (.order) of the same type at the service, which --change-command changes too, after the first.",
            valueName: "document"))
    var second: String?

    @Option(help: ArgumentHelp("The root the latest version's chain must verify to (as passmint verify --ca).", valueName: "root.pem"))
    var ca: String?

    @Flag(help: "Print every result as JSON.")
    var json = false

    func validate() throws {
        if second != nil && changeCommand == nil {
            throw ValidationError("--second needs --change-command: a command that changes both documents, one after the other")
        }
        guard (1...3_600).contains(timeout) else { throw ValidationError("--timeout \(timeout): give a number of seconds from 1 to 3600") }
        guard (1...10_000).contains(`repeat`) else { throw ValidationError("--repeat \(`repeat`): give a number from 1 to 10000") }
        if document != nil {
            let given = [token, passTypeID, serial, orderTypeID, orderID].contains { $0 != nil }
            if given { throw ValidationError("give a document or --token/--pass-type-id/--serial (--order-type-id/--order-id), not both") }
        }
    }

    func run() async throws {
        let target = try target()
        let report = await ServiceChecker(target: target, options: try options(for: target)).run()
        if json {
            print(JSONWriter.string(report.json), terminator: "")
        } else {
            for result in report.results { for line in result.lines { print(line) } }
            if `repeat` > 1 { for line in report.timingLines { print(line) } }
            let failed = report.results.filter { $0.status == .failed }.count
            print(
                failed == 0 ? "\(report.target.serviceURL): every check passed" : "\(report.target.serviceURL): \(failed) check(s) FAILED")
        }
        if !report.passed { throw ExitCode(1) }
    }

    /// How the checker runs, from the options (`target`: the document `--second` must be another one of).
    func options(for target: ServiceCheckTarget) throws -> ServiceCheckOptions {
        ServiceCheckOptions(
            allowHTTP: allowHTTP, timeout: .seconds(timeout), repeatCount: `repeat`, changeCommand: changeCommand,
            second: try second.map { try secondTarget($0, of: target) },
            root: try ca.map { try Certificate(contentsOf: $0) })
    }

    /// The `--second` document: of the same kind and type as `first`, another one.
    func secondTarget(_ path: String, of first: ServiceCheckTarget) throws -> ServiceCheckTarget {
        let second = try ServiceCheckTarget(document: try FileIO.readArchive(path, what: "document"), source: path)
        guard second.kind == first.kind, second.typeIdentifier == first.typeIdentifier, second.identifier != first.identifier else {
            throw ValidationError(
                "--second \(path): give another \(first.kind == .pass ? "pass" : "order") of \(first.typeIdentifier) (it holds \(second.typeIdentifier) \(second.identifier))"
            )
        }
        return second
    }

    /// The target the document names, or the options give.
    func target() throws -> ServiceCheckTarget {
        if let document {
            var target = try ServiceCheckTarget(document: try FileIO.readArchive(document, what: "document"), source: document)
            if let serviceURL { target.serviceURL = serviceURL }
            return target
        }
        let order = orderTypeID != nil || orderID != nil
        func required(_ value: String?, _ option: String) throws -> String {
            guard let value, !value.isEmpty else { throw ValidationError("give a .pkpass or .order, or --\(option)") }
            return value
        }
        return ServiceCheckTarget(
            kind: order ? .order : .pass, serviceURL: try required(serviceURL, "service-url"), token: try required(token, "token"),
            typeIdentifier: order ? try required(orderTypeID, "order-type-id") : try required(passTypeID, "pass-type-id"),
            identifier: order ? try required(orderID, "order-id") : try required(serial, "serial"))
    }
}
