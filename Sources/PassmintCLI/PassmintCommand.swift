import ArgumentParser
import Passmint

@main
struct PassmintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passmint",
        abstract: "Build and sign Apple Wallet passes (.pkpass) on Linux.",
        discussion: """
            A template is a folder such as Loyalty.pass/ holding pass.json (with {{placeholders}}), images and \
            optional <lang>.lproj/ folders. Signing material lives in a certificates folder (default Certificates/): \
            signer.pem + signer.key (or signer.p12) and wwdr.pem. Run Certificates/make-dev-chain.sh for a development \
            chain in Certificates/dev/.
            """,
        version: PassmintVersion.current,
        subcommands: [
            CreateCommand.self, BatchCommand.self, BundleCommand.self, LintCommand.self, VerifyCommand.self, CertsCommand.self,
            ServeCommand.self, UpdateCommand.self, StatsCommand.self, BenchCommand.self, PreviewCommand.self, GoogleCommand.self,
            CheckServiceCommand.self, PayCommand.self,
        ]
    )
}
