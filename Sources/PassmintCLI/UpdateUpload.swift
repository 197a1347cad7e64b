import Foundation
import NIOCore
import Passmint
import PassmintBatch

/// The rows of a changes file turned into the JSON Lines `POST /api/v1/updates` reads, one line per data row (an
/// empty line for a row that failed here, so that the service's line numbers are the rows' numbers). The whole file
/// is checked here first (``check()``): the rows that fail it are not sent.
final class UpdateUpload: @unchecked Sendable {
    struct Failure: Error {
        var row: Int
        var line: Int
        var serialNumber: String?
        /// The whole message, naming the row.
        var message: String
        /// The same for every row with this problem.
        var reason: String
    }

    private var input: BatchInput
    let path: String
    let formatDescription: String
    let plan: SpreadsheetPlan
    let passType: String?
    /// The order type of rows naming orders without an `orderTypeIdentifier` column.
    let orderType: String?
    /// The rows name orders (an `orderIdentifier` column, no serial number column).
    let namesOrders: Bool
    /// Rows that failed here, with why.
    private(set) var failures: [Failure] = []
    private var failedRows: Set<Int> = []
    /// The file line each data row starts on (index: row - 1).
    private(set) var lines: [Int] = []

    init(input: BatchInput, plan: SpreadsheetPlan, passType: String?, orderType: String? = nil, namesOrders: Bool = false) {
        self.input = input
        path = input.path
        formatDescription = input.formatDescription
        self.plan = plan
        self.passType = passType
        self.orderType = orderType
        self.namesOrders = namesOrders
    }

    /// Reads the whole file once, before anything is sent: a file in another encoding is refused (throws); rows that
    /// cannot become a change are kept in ``failures`` and left out of the upload. Returns the number of rows.
    func check() throws -> Int {
        var rows = try input.reopened()
        var count = 0
        while let row = rows.next() {
            count += 1
            if case .failure(let error) = row.values, CSVReader.isEncodingProblem(error.message) {
                throw PassmintError(
                    .invalidData,
                    """
                    data file \(path) cannot be read as \(rows.encodingName) (line \(row.line) is the first that is not): \
                    \(error.message); nothing was sent
                    """)
            }
            if case .failure(let failure) = change(row) {
                failures.append(failure)
                failedRows.insert(row.number)
            }
        }
        return count
    }

    /// The next chunk of the upload (about 256 KB); nil at the end.
    func nextChunk() -> ByteBuffer? {
        var bytes: [UInt8] = []
        while bytes.count < 256 * 1024, let row = input.next() {
            lines.append(row.line)
            if !failedRows.contains(row.number), case .success(let line) = change(row) {
                bytes += JSONWriter.data(.object(line), style: .compact)
            }
            bytes.append(0x0A)
        }
        return bytes.isEmpty ? nil : ByteBuffer(bytes: bytes)
    }

    func change(_ row: BatchRow) -> Result<JSONObject, Failure> {
        let values: JSONObject
        switch row.values {
        case .failure(let error):
            let message = "row \(row.number) (line \(row.line)): \(error.message)"
            return .failure(Failure(row: row.number, line: row.line, message: message, reason: error.message))
        case .success(let object): values = object
        }
        if values["data"] != nil || values["voided"]?.boolValue != nil || values["images"] != nil {
            var line = values
            if line["orderIdentifier"] != nil {
                if line["orderTypeIdentifier"] == nil, let orderType { line["orderTypeIdentifier"] = .string(orderType) }
            } else if line["passTypeIdentifier"] == nil, let passType {
                line["passTypeIdentifier"] = .string(passType)
            }
            return .success(line)
        }
        let renamed = plan.renamed(values)
        // The row's pass (its serial number) or order (its identifier), and its values converted.
        let (key, what) = namesOrders ? ("orderIdentifier", "order identifier") : ("serialNumber", "serial number")
        let id =
            switch renamed[key] {
            case .string(let text)?: text.trimmingCharacters(in: .whitespaces)
            case .number(let number)?: number.text
            default: ""
            }
        func failure(_ message: String, _ reason: String) -> Result<JSONObject, Failure> {
            .failure(Failure(row: row.number, line: row.line, serialNumber: id, message: message, reason: reason))
        }
        guard !id.isEmpty else {
            let column = plan.column(of: key)
            return failure("row \(row.number), column \(column): no \(what) (the value is empty)", "no \(what) (\(column) is empty)")
        }
        var data: JSONObject
        switch plan.converted(renamed, row: row.number) {
        case .success(let converted): data = converted
        case .failure(let problem): return failure(problem.message, problem.reason)
        }
        if namesOrders { return orderChange(id, data, row: row, failure: failure) }
        let type = data["passTypeIdentifier"]?.stringValue ?? passType ?? ""
        var line: JSONObject = ["passTypeIdentifier": .string(type), "serialNumber": .string(id)]
        if let voided = data["voided"]?.stringValue, !voided.isEmpty {
            guard let value = plan.format.boolean(voided) else {
                return failure(
                    "row \(row.number), column \(plan.column(of: "voided")): \"\(voided)\" is not yes or no (write true or false)",
                    "\(plan.column(of: "voided")) is not yes or no")
            }
            line["voided"] = .bool(value)
        }
        for key in ["serialNumber", "passTypeIdentifier", "voided", "authenticationToken"] { data[key] = nil }
        if !data.members.isEmpty { line["data"] = .object(data) }
        return .success(line)
    }
}
