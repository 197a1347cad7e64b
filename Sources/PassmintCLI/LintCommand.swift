import ArgumentParser
import Foundation
import Passmint

struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a template folder, a .pkpass or a pass.json against every rule Wallet enforces.",
        discussion: """
            Each finding has a severity (error or warning), a stable code, the file and JSON path, a message and a fix. \
            Exit status 1 when there is any error, 0 otherwise. In a template folder, passTypeIdentifier and \
            teamIdentifier may be absent and a value that is exactly one {{placeholder}} passes type checks.
            """
    )

    @Argument(help: ArgumentHelp("Template folder, .pkpass file or pass.json.", valueName: "path"))
    var path: String

    @Flag(help: "Print the findings as JSON.")
    var json = false

    @Flag(help: "Accept an http:// webServiceURL (development devices only) as a warning.")
    var allowHTTP = false

    func run() async throws {
        let contents = try Self.load(path)
        let diagnostics = PassLinter.lint(contents, options: LintOptions(allowHTTPWebService: allowHTTP))
        let errors = diagnostics.filter { $0.severity == .error }.count
        if json {
            let output: JSONValue = [
                "source": .string(contents.source), "errors": .number(JSONNumber(errors)),
                "warnings": .number(JSONNumber(diagnostics.count - errors)), "diagnostics": .array(diagnostics.map(\.json)),
            ]
            print(JSONWriter.string(output), terminator: "")
        } else {
            for diagnostic in diagnostics { print(diagnostic) }
            print("\(contents.source): \(errors) error(s), \(diagnostics.count - errors) warning(s)")
        }
        if errors > 0 { throw ExitCode(1) }
    }

    static func load(_ path: String) throws -> PassContents {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ValidationError("\(path) does not exist")
        }
        if isFolder.boolValue { return try PassContents.load(folder: path) }
        let bytes = try FileIO.read(path, what: "file")
        if path.hasSuffix(".json") {
            let (json, diagnostics) = PassContents.parse(passJSON: bytes)
            return PassContents(source: path, passJSON: json, files: [], isTemplate: false, readingDiagnostics: diagnostics)
        }
        return try PassContents.load(pkpass: bytes, source: path)
    }
}
