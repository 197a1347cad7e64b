import ArgumentParser

/// `passmint google …`: Google Wallet from the same templates.
struct GoogleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "google",
        abstract: "Issue Google Wallet passes from the same templates and data (see docs/google-wallet.md).",
        subcommands: [GoogleLinkCommand.self]
    )
}
