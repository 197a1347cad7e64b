import ArgumentParser
import Passmint
import PassmintServer
import Testing

@testable import PassmintCLI

/// `passmint check-service`'s options: a document or the options that stand for it, never both; --repeat and --timeout in range;
/// a missing option named.
@Suite struct CheckServiceCommandTests {
    func refusal(_ arguments: [String]) -> String {
        do {
            _ = try CheckServiceCommand.parse(arguments)
            return "accepted"
        } catch {
            return CheckServiceCommand.message(for: error)
        }
    }

    @Test func aDocumentOrItsOptionsNeverBoth() throws {
        #expect(refusal(["member.pkpass", "--token", "0123456789abcdef"]).contains("give a document or --token"))
        #expect(refusal(["member.pkpass", "--service-url", "https://staging.example.com/wallet"]) == "accepted")
        #expect(refusal(["member.pkpass", "--repeat", "0"]).contains("--repeat 0: give a number from 1 to 10000"))
        #expect(refusal(["member.pkpass", "--second", "other.pkpass"]).contains("--second needs --change-command"))
        #expect(refusal(["member.pkpass", "--timeout", "0"]).contains("--timeout 0: give a number of seconds from 1 to 3600"))
    }

    /// `--timeout` is how long each call may take; 30 s without it.
    @Test func theTimeoutReachesTheChecker() throws {
        let target = ServiceCheckTarget(
            kind: .pass, serviceURL: "https://passes.example.com/wallet", token: "0123456789abcdef", typeIdentifier: "pass.com.example",
            identifier: "S1")
        #expect(try CheckServiceCommand.parse(["member.pkpass", "--timeout", "90"]).options(for: target).timeout == .seconds(90))
        #expect(try CheckServiceCommand.parse(["member.pkpass"]).options(for: target).timeout == .seconds(30))
    }

    /// Without a document, the options are the target: a pass, or an order with the order options.
    @Test func theOptionsMakeTheTarget() throws {
        let url = "https://passes.example.com/wallet"
        let given: [([String], WalletWebService.Kind, String, String)] = [
            (["--pass-type-id", "pass.com.example", "--serial", "S1"], .pass, "pass.com.example", "S1"),
            (["--order-type-id", "order.com.example", "--order-id", "O1"], .order, "order.com.example", "O1"),
        ]
        for (arguments, kind, type, identifier) in given {
            let target = try CheckServiceCommand.parse(["--service-url", url, "--token", "0123456789abcdef"] + arguments).target()
            let expected = ServiceCheckTarget(
                kind: kind, serviceURL: url, token: "0123456789abcdef", typeIdentifier: type, identifier: identifier)
            #expect(target == expected, "\(arguments)")
        }
    }

    @Test func aMissingOptionIsNamed() throws {
        let command = try CheckServiceCommand.parse(["--service-url", "https://passes.example.com/wallet", "--token", "0123456789abcdef"])
        do {
            _ = try command.target()
            Issue.record("a pass without --pass-type-id was accepted")
        } catch {
            #expect("\(error)".contains("--pass-type-id"))
        }
        let order = try CheckServiceCommand.parse([
            "--service-url", "https://passes.example.com/wallet", "--token", "0123456789abcdef", "--order-type-id", "order.com.example",
        ])
        do {
            _ = try order.target()
            Issue.record("an order without --order-id was accepted")
        } catch {
            #expect("\(error)".contains("--order-id"))
        }
    }
}
