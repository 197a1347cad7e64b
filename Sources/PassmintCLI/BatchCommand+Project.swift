import ArgumentParser
import Foundation
import Passmint
import PassmintBatch

/// `batch` with a project file, and what it says before and after the rows.
extension BatchCommand {
    /// Fills the options the command line left out from the project file, and sorts out `passmint batch members.csv`
    /// (the one argument is the data file when the project names the template).
    mutating func apply(_ project: ProjectFile?) throws {
        if data == nil, let argument = template, Self.isDataFile(argument) {
            data = argument
            template = nil
        }
        template = template ?? project?.template
        outDir = outDir ?? (outArchive == nil && out == nil ? project?.outDir : nil)
        publicURL.url = publicURL.url ?? project?.publicURL
        if registerEnv == nil { register = register ?? project?.register }
        if signing.certificatesOption == nil { signing.certificatesOption = project?.certificates }
        guard template != nil else {
            throw ValidationError(
                "give the template folder (passmint batch PassTemplates/Loyalty.pass --data members.csv), or name it as \"template\" in passmint.json"
            )
        }
        guard data != nil else {
            throw ValidationError("give the data file: --data members.csv (or passmint batch members.csv with a passmint.json)")
        }
    }

    /// A data file rather than a template folder: an existing file, or a name ending in .csv, .tsv, .txt, .jsonl.
    static func isDataFile(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) { return !isFolder.boolValue }
        return [".csv", ".tsv", ".txt", ".jsonl", ".ndjson"].contains { path.lowercased().hasSuffix($0) }
    }

    /// Before the rows: the columns and what each feeds, the empty values found, and (once) that cards without a web
    /// service can never change. Nothing with --json (its standard error stays empty).
    func announce(_ plan: BatchPlan, template: PassTemplate, webServiceURL: String?) {
        guard !json else { return }
        if !quiet, !plan.mappingLines.isEmpty {
            printError("columns → placeholders:")
            for line in plan.mappingLines { printError("  " + line) }
        }
        for warning in plan.warnings { printError(warning) }
        if webServiceURL == nil, template.passJSON["webServiceURL"] == nil {
            printError(
                """
                warning: these cards have no web service (no webServiceURL), so once they are on a phone they can never change: \
                to update them later (points, tier, …) issue them with --public-url <the public URL of `passmint serve`> and \
                --register <its database>, or put "publicURL" and "register" in passmint.json
                """)
        }
    }

    /// After the rows: the failures grouped by reason, the passes issued again, and where the report is.
    func summarize(_ result: BatchProgress, report: String?) {
        if result.reissued > 0 {
            printError(
                "\(result.reissued) row\(result.reissued == 1 ? "" : "s") changed since the last run: \(result.reissued == 1 ? "its card was" : "their cards were") issued again"
            )
        }
        if result.changedAtService > 0 {
            let count = result.changedAtService
            printError(
                "warning: \(count) row\(count == 1 ? "" : "s") changed at the service since \(count == 1 ? "it was" : "they were") issued "
                    + "(an update, a PATCH): left as the service has \(count == 1 ? "it" : "them"), not applied from this file. "
                    + "Use `passmint update` to change \(count == 1 ? "it" : "them") (the report marks them changed-at-service)")
        }
        if result.failed > 0 {
            printError("\(result.failed) of \(result.rows) rows failed:")
            for line in result.failures.lines { printError("  " + line) }
        }
        if let report { printError("report: \(report)") }
    }
}
