import Foundation
import Passmint
import PassmintBatch

/// Rows naming orders: an `orderIdentifier` column (and an `orderTypeIdentifier` column, or `--order-type`); every
/// other column is a value of the order's data, merged as a PATCH of the order merges it.
extension UpdateUpload {
    /// The change of order `id` from a row's values, converted (``change(_:)`` read and checked its identifier).
    func orderChange(
        _ id: String, _ values: JSONObject, row: BatchRow, failure: (String, String) -> Result<JSONObject, Failure>
    ) -> Result<JSONObject, Failure> {
        var data = values
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
