import Foundation
import Passmint

/// After `--change-command` (`change.*`): what a device must see once the document changed at the issuer.
extension ServiceCheckRun {
    /// Runs the command, then `change.poll` (the old tag lists the document), `change.latest` (a later
    /// `Last-Modified`, no 304 for the old one) and, with a second document, `change.both`.
    mutating func afterChange() async {
        guard let command = options.changeCommand else { return }
        if let second = options.second { await registerPair(second) }
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
        if let second = options.second { await pairPoll(second) }
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

    /// Before the change: registers ``pairDevice`` for both documents and keeps the tag of its poll.
    mutating func registerPair(_ second: ServiceCheckTarget) async {
        let id = "change.both"
        let body = PushTokenBody(pushToken: pushToken).json
        guard
            let first = await call(id, "register", .register, registrationPath(pairDevice), token: target.token, body: body),
            (200..<300).contains(first.status)
        else { return skip(id, "the device for both \(noun)s could not register for \(target.identifier)") }
        toRemove.insert(pairDevice)
        guard let other = await call(id, "register", .register, registrationPath(pairDevice, of: second), token: second.token, body: body)
        else { return }
        guard (200..<300).contains(other.status) else {
            fail(
                id, "the device for both \(noun)s could not register for \(second.identifier)", other,
                fix: "give --second a \(noun) of the same type at this service, with its own authenticationToken")
            return
        }
        pairRegistered = true
        guard let poll = await call(id, "poll", .poll, pollPath(pairDevice)) else { return }
        pairTag = Self.tag(poll, kind)
    }

    /// `change.both`: after both documents changed, one after the other, the pair device's poll with its tag from
    /// before lists both.
    mutating func pairPoll(_ second: ServiceCheckTarget) async {
        let id = "change.both"
        guard pairRegistered else { return }
        guard let pairTag else { return skip(id, "the poll of the device registered for both gave no tag") }
        guard let poll = await call(id, "poll since", .poll, pollPath(pairDevice, since: pairTag)) else { return }
        let listed = Self.listed(poll, kind)
        let missing = [target.identifier, second.identifier].filter { !listed.contains($0) }
        if missing.isEmpty {
            pass(id, "a device registered for both, polling with a tag older than both changes, got both", poll)
        } else {
            fail(
                id,
                "a device registered for \(target.identifier) and \(second.identifier), both changed after its tag, was not told about \(missing.joined(separator: ", "))",
                poll,
                fix:
                    "list every \(noun) of the device changed after \(kind.sinceParameter), not only the last one changed (compare each \(noun)'s own tag with it); the change command must change both"
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
