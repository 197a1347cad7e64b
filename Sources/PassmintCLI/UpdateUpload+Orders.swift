import Foundation
import Passmint
import PassmintBatch

/// Rows naming orders: an `orderIdentifier` column (and an `orderTypeIdentifier` column, or `--order-type`); every
/// other column is a value of the order's data, merged as a PATCH of the order merges it.
extension UpdateUpload {
    func orderChange(_ renamed: JSONObject, row: BatchRow) -> Result<JSONObject, Failure> {
        let id =
            switch renamed["orderIdentifier"] {
            case .string(let text)?: text.trimmingCharacters(in: .whitespaces)
            case .number(let number)?: number.text
            default: ""
            }
        func failure(_ message: String, _ reason: String) -> Result<JSONObject, Failure> {
            .failure(Failure(row: row.number, line: row.line, serialNumber: id, message: message, reason: reason))
        }
        guard !id.isEmpty else {
            let column = plan.column(of: "orderIdentifier")
            return failure(
                "row \(row.number), column \(column): no order identifier (the value is empty)", "no order identifier (\(column) is empty)")
        }
        var data: JSONObject
        switch plan.converted(renamed, row: row.number) {
        case .success(let converted): data = converted
        case .failure(let problem): return failure(problem.message, problem.reason)
        }
        let type = data["orderTypeIdentifier"]?.stringValue.map { $0.trimmingCharacters(in: .whitespaces) } ?? orderType ?? ""
        guard type.hasPrefix("order.") else {
            let column = plan.column(of: "orderTypeIdentifier")
            return failure(
                "row \(row.number), column \(column): \"\(type)\" is not an order type identifier (order.…)",
                "\(column) is not an order type (order.…)")
        }
        for key in ["orderIdentifier", "orderTypeIdentifier", "authenticationToken"] { data[key] = nil }
        for member in data.members where member.value.stringValue?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            data[member.key] = nil  // an empty cell changes nothing
        }
        guard !data.members.isEmpty else {
            return failure("row \(row.number): nothing to change (every value but the order identifier is empty)", "nothing to change")
        }
        return .success(["orderTypeIdentifier": .string(type), "orderIdentifier": .string(id), "data": .object(data)])
    }
}
