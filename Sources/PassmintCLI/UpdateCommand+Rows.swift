import ArgumentParser
import Foundation
import Passmint
import PassmintBatch

/// `passmint update` with a changes file: the file checked as a whole before anything is sent, and the end of the
/// run (counts, failures grouped by reason, the failures file).
extension UpdateCommand {
    /// Opens the changes file, matches its columns, finds the pass type and checks every row; throws when the file
    /// as a whole cannot be sent.
    func prepareUpload(path: String, project: ProjectFile?, client: UpdateClient) async throws -> UpdateUpload {
        let input = try spreadsheet.input(path, project: project)
        if !json { printError("reading \(path): \(input.formatDescription)") }
        let template = try (self.template ?? project?.template).map { try PassTemplate(folder: $0) }
        let (given, source) = try spreadsheet.mapping(project: project)
        var mapping = given
        // Without the template what it uses is not known; an order's values are not a pass template's placeholders.
        let orders =
            mapping.entries.contains { $0.placeholder == "orderIdentifier" }
            || (input.columns ?? []).contains { ColumnMapping.folded($0) == "orderidentifier" }
        if template == nil || orders { mapping.keepsUnusedColumns = true }
        var names = ["serialNumber", "passTypeIdentifier", "voided", "orderIdentifier", "orderTypeIdentifier"]
        for name in template?.placeholders ?? (mapping.entries.map(\.placeholder) + mapping.values.map(\.placeholder))
        where !names.contains(name) { names.append(name) }
        var columns: SpreadsheetColumns?
        if let header = input.columns {
            let resolved = try SpreadsheetColumns(columns: header, names: names, mapping: mapping, mappingSource: source)
            if resolved.missing.contains("serialNumber") && resolved.missing.contains("orderIdentifier") {
                throw ValidationError(
                    """
                    data file \(path) has no column for the serial numbers (its columns: \(header.joined(separator: ", "))): \
                    name it with --map "Column=serialNumber" (or --map "Column=orderIdentifier" for orders)
                    """)
            }
            if !json {
                printError("columns → fields:")
                for line in resolved.describe(mappingSource: source) { printError("  " + line) }
            }
            columns = resolved
        }
        let plan = SpreadsheetPlan(
            columns: columns, mapping: mapping, format: try spreadsheet.format(project: project),
            kinds: template?.placeholderKinds ?? [:], required: spreadsheet.required(project: project),
            lengths: template.map { FieldLengths(template: $0) } ?? FieldLengths(), used: names)
        let namesOrders = columns.map { !$0.missing.contains("orderIdentifier") && $0.missing.contains("serialNumber") } ?? false
        var passType = self.passType ?? project?.passType ?? template?.passJSON["passTypeIdentifier"]?.stringValue
        var orderType = self.orderType
        if namesOrders {
            if orderType == nil, columns?.missing.contains("orderTypeIdentifier") ?? true {
                orderType = try await servicePassType(client, required: true, orders: true)
                if let orderType, !json { printError("order type: \(orderType) (the only one the service signs)") }
            }
        } else if passType == nil, columns.map({ $0.missing.contains("passTypeIdentifier") }) ?? true {
            passType = try await servicePassType(client, required: columns != nil)
            if let passType, !json { printError("pass type: \(passType) (the only one the service signs)") }
        }
        let upload = UpdateUpload(
            input: try input.reopened(), plan: plan, passType: passType, orderType: orderType, namesOrders: namesOrders)
        let rows = try upload.check()
        if !json {
            let failed = upload.failures.count
            printError(
                "checked \(rows) row\(rows == 1 ? "" : "s"): \(rows - failed) to send"
                    + (failed > 0 ? ", \(failed) failed here and \(failed == 1 ? "is" : "are") not sent" : ""))
        }
        return upload
    }

    /// The service's pass type (order type with `orders`), when it signs exactly one; throws when `required` and it
    /// signs none or several.
    private func servicePassType(_ client: UpdateClient, required: Bool, orders: Bool = false) async throws -> String? {
        let types: [String]
        let (kind, option, column) =
            orders ? ("order type", "--order-type", "orderTypeIdentifier") : ("pass type", "--pass-type", "passTypeIdentifier")
        do {
            types = try await client.passTypes().filter { $0.hasPrefix("order.") == orders }
        } catch let refused as UpdateClient.Refused where refused.unreachable {
            throw refused
        } catch {
            if !required { return nil }
            throw ValidationError("the rows name no \(kind), and the service did not say which it signs (\(error)): give \(option)")
        }
        if types.count == 1 { return types[0] }
        if !required { return nil }
        throw ValidationError(
            types.isEmpty
                ? "the rows name no \(kind), and the service has no certificate for one: give \(option)"
                : "the rows name no \(kind), and the service signs \(types.count) (\(types.joined(separator: ", "))): give \(option), or a \(column) column"
        )
    }

    /// The end of the run: one set of counts (the service's and the rows that failed here), the failures grouped by
    /// reason, and the failures file, which holds exactly the failed rows.
    func finish(_ finished: JSONValue, id: String, upload: UpdateUpload?, remote: [JSONValue]) throws {
        let local = upload?.failures ?? []
        let failed = local.count + remote.count
        let path = report ?? ((data ?? file).map { $0 + ".failures.csv" } ?? "update-failures.csv")
        if failed > 0 || upload != nil {
            try UpdateReport.write(
                to: path, local: local, remote: remote, lines: upload?.lines ?? [],
                identifier: upload?.namesOrders == true ? "orderIdentifier" : "serialNumber")
        }
        if json {
            var object = finished.objectValue ?? [:]
            object["failed"] = .number(JSONNumber(failed))
            object["failedBeforeUpload"] = .number(JSONNumber(local.count))
            print(JSONWriter.string(.object(object)))
        } else {
            printError(
                "job \(id) \(finished["state"]?.stringValue ?? "?"): \(finished.count("changed")) changed, \(finished.count("unchanged")) unchanged, \(failed) failed, \(finished.count("pushesQueued")) pushes queued"
            )
            if failed > 0 {
                var summary = FailureSummary()
                for failure in local { summary.add(row: failure.row, reason: failure.reason) }
                for failure in remote {
                    summary.add(row: failure.count("line"), reason: failure["reason"]?.stringValue ?? "failed")
                }
                printError("\(failed) row\(failed == 1 ? "" : "s") failed:")
                for line in summary.lines { printError("  " + line) }
                printError("failures: \(path)")
            }
        }
        if finished["state"]?.stringValue != "finished" { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }
}
