import ArgumentParser
import Foundation
import Passmint

extension LintCommand {
    /// Whether `path` is an order: a template folder holding `order.json`, an `order.json`, or an `.order` package.
    static func isOrder(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".order") || lowered.hasSuffix("order.json")
            || FileManager.default.fileExists(atPath: path + "/order.json")
    }

    /// The findings about the order at `path`.
    static func lintOrder(_ path: String) throws -> [Diagnostic] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw ValidationError("\(path) does not exist") }
        if isFolder.boolValue { return OrderLinter.lint(template: try OrderTemplate(folder: path)) }
        let bytes = try FileIO.readArchive(path, what: "order")
        if path.lowercased().hasSuffix(".json") { return OrderLinter.lint(orderJSON: bytes) }
        return OrderLinter.lint(archive: try ZipArchive.read(bytes, source: path))
    }
}
