import ArgumentParser
import Testing

@testable import PassmintCLI

/// `passmint check-service`'s options: a document or the options that stand for it, never both; a --repeat in range;
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
