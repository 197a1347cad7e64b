import ArgumentParser
import Foundation
import Passmint
import PassmintGoogle

/// `passmint google link TEMPLATE --data …`: inserts or patches the Google class and object and prints the save link.
struct GoogleLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Insert or update a pass's Google Wallet class and object, and print its \"Add to Google Wallet\" link.",
        discussion: """
            The template and data are those of passmint create. The class is {issuerId}.{template} (or --class-suffix), \
            the object {issuerId}.{passTypeIdentifier}.{serialNumber}, as passmint serve and passmint batch --google name \
            it, so that the service updates the card later; the pass type is --pass-type-id, else the template's, else \
            the one of the certificate in --certificates. Each is inserted when Google does not have it and patched \
            when it differs. What does not carry over to Google Wallet is printed as warnings (passmint lint --google \
            lists it too). The link (https://pay.google.com/gp/v/save/…) goes to standard output.
            """
    )

    @Argument(help: ArgumentHelp("Template folder (Name.pass/).", valueName: "template"))
    var template: String

    @OptionGroup var data: DataOptions
    @OptionGroup var google: GoogleOptions

    @Option(
        name: .customLong("pass-type-id"),
        help: ArgumentHelp(
            "The pass type identifier the pass is signed with (default: the template's, else the certificate's in --certificates).",
            valueName: "id"))
    var passTypeIdentifier: String?

    @OptionGroup var signing: SigningOptions

    func run() async throws {
        let account = try google.account.load(for: "google link sends the class and object to Google with its account")
        let (key, options) = (account.key, google.mappingOptions(issuerID: account.issuerID))
        let passTemplate = try PassTemplate(folder: template)
        let values = try data.load()
        var pass = try passTemplate.render(data: values)
        pass["passTypeIdentifier"] = .string(try passType(of: pass))
        let files = try passTemplate.renderFiles(data: values).map { PassContents.File(path: $0.path, bytes: $0.bytes) }
        let name = URL(fileURLWithPath: template).deletingPathExtension().lastPathComponent
        let mapped = try GoogleMapping(options: options).map(pass: pass, files: files, templateName: name)
        for finding in mapped.findings { FileHandle.standardError.write(Data("\(finding)\n".utf8)) }

        let http = GoogleHTTP()
        do {
            let client = GoogleWalletClient(apiURL: account.apiURL, tokens: GoogleAccessTokens(key: key, http: http), http: http)
            let classOutcome = try await client.upsertClass(mapped.classBody, style: mapped.style)
            let objectOutcome = try await client.upsertObject(mapped.objectBody, style: mapped.style)
            let report = "class \(mapped.classID): \(classOutcome.rawValue); object \(mapped.objectID): \(objectOutcome.rawValue)\n"
            FileHandle.standardError.write(Data(report.utf8))
            print(try GoogleSaveLink(key: key).link(objectID: mapped.objectID, style: mapped.style, origins: google.origins))
            try await http.shutdown()
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// The pass type the object id is made of: the option, the template's, or the signing certificate's.
    private func passType(of pass: JSONObject) throws -> String {
        if let passTypeIdentifier { return passTypeIdentifier }
        if let type = pass["passTypeIdentifier"]?.stringValue { return type }
        let identities: SigningIdentities
        do {
            identities = try signing.loadIdentities()
        } catch {
            throw ValidationError(
                "the Google object's id names the pass type, and neither --pass-type-id nor the template gives it, nor could the "
                    + "certificates be read (\(error)): give --pass-type-id or --certificates")
        }
        let types = identities.passTypeIdentifiers
        guard types.count == 1 else {
            throw ValidationError(
                "\(signing.certificates) holds \(types.isEmpty ? "no certificate naming a pass type" : "several pass types (\(types.joined(separator: ", ")))"): "
                    + "give --pass-type-id")
        }
        return types[0]
    }
}
