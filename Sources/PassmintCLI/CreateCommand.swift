import ArgumentParser
import Foundation
import Passmint

struct CreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Build one signed .pkpass (or Wallet .order) from a template folder and its data.",
        discussion: """
            Placeholders: a pass.json string that is exactly "{{name}}" takes the data value with its JSON type; \
            {{name}} inside a longer string is replaced by the value's text. A placeholder with no value is an error. \
            Translations: a strings.json at the template root ({"en": {"KEY": "text"}, "fr": {…}}) is written into \
            <lang>.lproj/pass.strings (UTF-16 with a BOM) and not shipped; {{name}} works inside translations too. \
            passTypeIdentifier and teamIdentifier, when absent from pass.json, come from the certificate (UID and OU). \
            The output is written atomically: nothing is written when anything fails.

            Orders: a template folder holding order.json (e.g. OrderTemplates/Shipment.order) makes a Wallet order \
            package (.order, MIME application/vnd.apple.finance.order): order.json is checked (passmint lint rules for \
            orders), the manifest holds SHA-256 hashes, strings.json becomes <lang>.lproj/order.strings, and the \
            signature is made with an Order Type ID certificate (UID order.…, e.g. a sub-folder order.com.example/ of \
            --certificates); orderTypeIdentifier, when absent, comes from the certificate's UID.

            Example:
              passmint create PassTemplates/Loyalty.pass --data PassTemplates/Loyalty.json \\
                --set name="Zoë Müller" --set points:=1250 --certificates Certificates/dev --output card.pkpass
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Template folder (e.g. PassTemplates/Loyalty.pass, or OrderTemplates/Shipment.order).", valueName: "template-folder"))
    var template: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the .pkpass (or .order).", valueName: "file.pkpass"))
    var output: String

    @OptionGroup var data: DataOptions
    @OptionGroup(title: "Signing") var signing: SigningOptions

    @Flag(help: "Sign even when the certificate has expired (Wallet will refuse the pass; for tests).")
    var allowExpired = false

    func run() async throws {
        // The output's folder is checked first: rendering, linting and signing would be wasted on a path that cannot
        // be written.
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--output \(output): the folder \(folder) does not exist; create it first (mkdir -p \(folder))")
        }
        if FileManager.default.fileExists(atPath: template + "/order.json") { return try createOrder() }
        let template = try PassTemplate(folder: template)
        let values = try data.load()
        let builder = PassBuilder(identities: try signing.loadIdentities(), options: .init(allowExpired: allowExpired))
        let pass = try builder.sign(PassInput(template: template, data: values))
        let identity = try builder.identities.identity(for: pass.passTypeIdentifier)
        if allowExpired && Date() > identity.certificate.notAfter {
            printError("warning: the signing certificate expired on \(identity.certificate.notAfter); Wallet will refuse this pass")
        }
        for warning in pass.warnings { printError("\(warning)") }
        guard pass.archive.count <= PassBundle.maximumBytes else {
            throw ValidationError(
                "the pass would weigh \(PassBundle.megabytes(pass.archive.count)), more than the \(PassBundle.megabytes(PassBundle.maximumBytes)) "
                    + "`passmint verify` and Wallet accept: nothing was written; check the data file's values and the template's images")
        }
        try FileIO.writeAtomically(pass.archive, to: output)
        print("wrote \(output) (\(pass.archive.count) bytes, \(pass.passTypeIdentifier) serial \(pass.serialNumber))")
    }
}

func printError(_ message: String, terminator: String = "\n") {
    FileHandle.standardError.write(Data((message + terminator).utf8))
}
