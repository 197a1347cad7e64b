import ArgumentParser
import Passmint

struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Put several signed passes into one .pkpasses bundle, so they are added to Wallet together.",
        discussion: """
            A .pkpasses bundle is a ZIP archive of .pkpass files (stored, not compressed again), served with \
            Content-Type: application/vnd.apple.pkpasses. Wallet takes at most 10 passes and 150 MB per bundle; \
            Passmint refuses more, with the count or the sizes. Each input must be a signed pass (a ZIP archive with \
            pass.json at its root). Entries keep the input file names (made unique), e.g. ticket-1.pkpass. \
            Safari adds every pass of a bundle at once; apps must unzip it and add the passes one by one. \
            The output is written atomically: nothing is written when anything fails.

            Example:
              passmint bundle out/ticket-1.pkpass out/ticket-2.pkpass --output tickets.pkpasses
            """
    )

    @Argument(help: ArgumentHelp("The signed passes to bundle (1 to 10 .pkpass files).", valueName: "file.pkpass"))
    var passes: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the .pkpasses bundle.", valueName: "file.pkpasses"))
    var output: String

    func validate() throws {
        guard !passes.isEmpty else { throw ValidationError("give at least one .pkpass file to bundle") }
    }

    func run() async throws {
        guard passes.count <= PassBundle.maximumPasses else {
            // Checked before reading, so eleven large files are not loaded for nothing.
            throw PassmintError(
                .invalidData,
                "a .pkpasses bundle holds at most \(PassBundle.maximumPasses) passes, but \(passes.count) were given: split them into several bundles"
            )
        }
        var items: [PassBundle.Item] = []
        for path in passes {
            items.append(PassBundle.Item(name: path, archive: try FileIO.read(path, what: "pass"), source: path))
        }
        let bundle = try PassBundle.make(items)
        try FileIO.writeAtomically(bundle, to: output)
        let names = PassBundle.entryNames(for: items)
        print(
            "wrote \(output) (\(bundle.count) bytes, \(items.count) pass\(items.count == 1 ? "" : "es"): \(names.joined(separator: ", ")))")
    }
}
