import Foundation
import Passmint

/// After `--change-command` (`change.*`): what a device must see once the document changed at the issuer.
extension ServiceCheckRun {
    /// Runs the command, then `change.poll` (the old tag lists the document) and `change.latest` (a later
    /// `Last-Modified`, no 304 for the old one).
    mutating func afterChange() async {
        guard let command = options.changeCommand else { return }
        let outcome = await Self.runShell(command)
        guard outcome.status == 0 else {
            fail(
                "change.command", "the change command failed (exit status \(outcome.status))", nil,
                fix: "make `\(command)` change the \(noun) at the issuer and exit 0: \(MessageText.cut(outcome.output, limit: 200))")
            return
        }
        pass("change.command", "the change command ran")
        if let tag {
            if let poll = await call("change.poll", "poll since", .poll, pollPath(device, since: tag)) {
                if poll.status == WalletWebService.Status.updated, Self.listed(poll, kind).contains(target.identifier) {
                    pass("change.poll", "polling with the tag before the change lists \(target.identifier)", poll)
                } else {
                    fail(
                        "change.poll", "after the change, polling with the tag before it must list \(target.identifier)", poll,
                        fix: "give the \(noun) a new tag when it changes, later than every tag the poll returned before")
                }
            }
        } else {
            skip("change.poll", "the first poll gave no tag")
        }
        guard let lastModified else { return skip("change.latest", "no Last-Modified before the change") }
        guard
            let exchange = await call(
                "change.latest", "latest", .latest, latestPath, token: target.token, headers: [("If-Modified-Since", lastModified)])
        else { return }
        let newer = exchange.header("Last-Modified").flatMap { HTTPDate.parse($0) }
        if exchange.status == WalletWebService.Status.latest, let newer, let older = HTTPDate.parse(lastModified), newer > older {
            pass("change.latest", "the changed \(noun) was sent with a later Last-Modified", exchange)
        } else {
            fail(
                "change.latest",
                "after the change, If-Modified-Since with the old Last-Modified must get the new version (200) with a later Last-Modified",
                exchange, fix: "set Last-Modified to the time of the \(noun)'s last change, at least a second later than the version before"
            )
        }
    }

    /// Runs `command` with `/bin/sh -c`, waiting for its exit without blocking a thread; its exit status and output
    /// (written to a temporary file, read once it exited).
    static func runShell(_ command: String) async -> (status: Int32, output: String) {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-check-\(randomHex(8)).log")
        defer { try? FileManager.default.removeItem(at: outputURL) }
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil), let output = try? FileHandle(forWritingTo: outputURL)
        else {
            return (127, "could not create \(outputURL.path)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = output
        process.standardError = output
        let status: Int32 = await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: 127)
            }
        }
        try? output.close()
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return (status, text)
    }
}
