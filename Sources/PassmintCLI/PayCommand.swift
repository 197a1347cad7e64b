import ArgumentParser

struct PayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay",
        abstract: "Apple Pay on the server: verify and decrypt payment tokens, check merchant keys (docs/apple-pay.md).",
        subcommands: [PayDecryptCommand.self, PayKeysCommand.self, PayBenchCommand.self]
    )
}
