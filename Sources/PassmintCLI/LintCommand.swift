import ArgumentParser
import Foundation
import Passmint

struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Check a template folder, a .pkpass (or each pass of a .pkpasses), a pass.json, or a Wallet order (.order, order.json, order template) against every rule Wallet enforces.",
        discussion: """
            Each finding has a severity (error or warning), a stable code, the file and JSON path, a message and a fix. \
            Exit status 1 when there is any error, 0 otherwise. In a template folder, passTypeIdentifier and \
            teamIdentifier may be absent and a value that is exactly one {{placeholder}} passes type checks.

            Orders (a folder holding order.json, an order.json, or a .order package) are checked against the order \
            rules: required keys, types, allowed values (statuses, fulfillment types, barcode formats), RFC 3339 dates, \
            https URLs, the authentication token, the images order.json names (present, PNG, square). The rules between \
            two versions of an order (statuses that cannot go back, updatedAt that must grow) are run by \
            passmint verify --previous.
            """
    )

    @Argument(help: ArgumentHelp("Template folder, .pkpass or .pkpasses file, pass.json, or .order / order.json.", valueName: "path"))
    var path: String

    @Flag(help: "Print the findings as JSON.")
    var json = false

    @Flag(help: "Accept an http:// webServiceURL (development devices only) as a warning.")
    var allowHTTP = false

    @Flag(help: "Also list what will not carry over to Google Wallet (warnings with code google-not-carried).")
    var google = false

    func run() async throws {
        let options = LintOptions(allowHTTPWebService: allowHTTP)
        let linted =
            try Self.isOrder(path)
            ? [(path, Self.lintOrder(path))]
            : Self.loadAll(path).map { contents in
                (contents.source, PassLinter.lint(contents, options: options) + (google ? Self.googleFindings(contents) : []))
            }
        let errors = linted.map { $0.1.filter { $0.severity == .error }.count }.reduce(0, +)
        let total = linted.map(\.1.count).reduce(0, +)
        if json {
            func report(_ source: String, _ diagnostics: [Diagnostic]) -> JSONValue {
                let errors = diagnostics.filter { $0.severity == .error }.count
                return [
                    "source": .string(source), "errors": .number(JSONNumber(errors)),
                    "warnings": .number(JSONNumber(diagnostics.count - errors)), "diagnostics": .array(diagnostics.map(\.json)),
                ]
            }
            if linted.count == 1 && !Self.isBundle(path) {
                print(JSONWriter.string(report(linted[0].0, linted[0].1)), terminator: "")
            } else {
                let output: JSONValue = [
                    "source": .string(path), "errors": .number(JSONNumber(errors)), "warnings": .number(JSONNumber(total - errors)),
                    "passes": .array(linted.map { report($0.0, $0.1) }),
                ]
                print(JSONWriter.string(output), terminator: "")
            }
        } else {
            for (source, diagnostics) in linted {
                if linted.count > 1 || Self.isBundle(path) { print("\(source):") }
                for diagnostic in diagnostics { print(diagnostic) }
            }
            print("\(path): \(errors) error(s), \(total - errors) warning(s)")
        }
        if errors > 0 { throw ExitCode(1) }
    }

    static func isBundle(_ path: String) -> Bool { path.lowercased().hasSuffix(".pkpasses") }

    /// The passes at `path`: one, or each pass of a `.pkpasses` bundle.
    static func loadAll(_ path: String) throws -> [PassContents] {
        guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("\(path) does not exist") }
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if !isFolder.boolValue && !path.hasSuffix(".json") {
            let bytes = try FileIO.readArchive(path, what: "file")
            if isBundle(path) || PassBundle.looksLikeBundle(bytes) {
                return try PassBundle.read(bytes, source: path).map { entry in
                    try PassContents.load(pkpass: entry.archive, source: path + "/" + entry.name)
                }
            }
        }
        return [try load(path)]
    }

    static func load(_ path: String) throws -> PassContents {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ValidationError("\(path) does not exist")
        }
        if isFolder.boolValue { return try PassContents.load(folder: path) }
        let bytes = try FileIO.readArchive(path, what: "file")
        if path.hasSuffix(".json") {
            let (json, diagnostics) = PassContents.parse(passJSON: bytes)
            return PassContents(source: path, passJSON: json, files: [], isTemplate: false, readingDiagnostics: diagnostics)
        }
        return try PassContents.load(pkpass: bytes, source: path)
    }
}
