/// One line of a bulk change (`POST /api/v1/updates`): `{"passTypeIdentifier", "serialNumber", "data": {…},
/// "voided": true, "images": {…}, "unvoid": true}`, the same change a `PATCH` of that pass makes (`"unvoid": true` as
/// its `?unvoid=true`); or `{"orderTypeIdentifier",
/// "orderIdentifier", "data": {…}}`, the same change a `PATCH` of that order makes. Read here, beside the protocol, so
/// that the fuzz target of the service's request parts needs only this module.
package struct BulkUpdateLine: Sendable {
    /// The pass type, or the order type of an order line.
    package var passTypeIdentifier: String
    /// The serial number, or the order identifier of an order line.
    package var serialNumber: String
    /// The line names an order.
    package var isOrder = false
    package var data: JSONObject?
    package var voided: Bool?
    package var images: JSONObject?
    /// `"unvoid": true`: `"voided": false` may make a voided pass valid again (the `unvoid` of the service's update).
    package var unvoid = false

    /// Reads a line; a message saying what is wrong with it otherwise. A text value of `data` longer than
    /// `maximumValue` UTF-8 bytes (the service's `--max-value-size`) is refused, naming its key.
    package static func parse(_ bytes: some Collection<UInt8>, maximumValue: Int = .max) -> Result<BulkUpdateLine, LineFailure> {
        let object: JSONObject
        do {
            guard let parsed = try JSONParser.value(bytes).objectValue else {
                return .failure(LineFailure("the line is not a JSON object"))
            }
            object = parsed
        } catch {
            return .failure(LineFailure("the line is not JSON: \(error)"))
        }
        if object["orderIdentifier"] != nil || object["orderTypeIdentifier"] != nil {
            return parseOrder(object, maximumValue: maximumValue)
        }
        guard let type = object["passTypeIdentifier"]?.stringValue, PathComponent.isValid(type) else {
            return .failure(LineFailure("give \"passTypeIdentifier\": the pass's type, e.g. \"pass.com.example.loyalty\""))
        }
        guard let serial = object["serialNumber"]?.stringValue, PathComponent.isValid(serial) else {
            return .failure(LineFailure("give \"serialNumber\": 1–128 characters of letters, digits and . _ - : ~"))
        }
        var line = BulkUpdateLine(passTypeIdentifier: type, serialNumber: serial)
        if let data = object["data"] {
            guard let data = data.objectValue else { return .failure(LineFailure("\"data\" must be an object", serial: serial)) }
            if let (path, length) = ValueSize.longest(in: .object(data), path: "data", over: maximumValue) {
                return .failure(
                    LineFailure(
                        "\"\(path)\" is \(length) bytes long; a value may be at most \(maximumValue) bytes on this service",
                        serial: serial))
            }
            line.data = data
        }
        if let voided = object["voided"] {
            guard let voided = voided.boolValue else { return .failure(LineFailure("\"voided\" must be true or false", serial: serial)) }
            line.voided = voided
        }
        if let unvoid = object["unvoid"] {
            guard let unvoid = unvoid.boolValue else { return .failure(LineFailure("\"unvoid\" must be true or false", serial: serial)) }
            line.unvoid = unvoid
        }
        if let images = object["images"] {
            guard let images = images.objectValue else {
                return .failure(LineFailure("\"images\" must be an object: {\"thumbnail@2x\": \"<base64 PNG>\"}", serial: serial))
            }
            line.images = images
        }
        guard line.data != nil || line.voided != nil || line.images != nil else {
            return .failure(LineFailure("nothing to change: give \"data\", \"voided\" or \"images\"", serial: serial))
        }
        return .success(line)
    }

    /// An order line: both identifiers and `data`, nothing else of a pass's.
    private static func parseOrder(_ object: JSONObject, maximumValue: Int) -> Result<BulkUpdateLine, LineFailure> {
        guard let type = object["orderTypeIdentifier"]?.stringValue, type.hasPrefix("order."), PathComponent.isValid(type) else {
            return .failure(LineFailure("give \"orderTypeIdentifier\": the order's type, e.g. \"order.com.example.shop\""))
        }
        guard let id = object["orderIdentifier"]?.stringValue, PathComponent.isValid(id) else {
            return .failure(LineFailure("give \"orderIdentifier\": 1–128 characters of letters, digits and . _ - : ~"))
        }
        if let key = ["passTypeIdentifier", "serialNumber", "voided", "images", "unvoid"].first(where: { object[$0] != nil }) {
            return .failure(
                LineFailure(
                    "an order line has no \"\(key)\": give \"data\" (an order is cancelled with \"data\": {\"status\": \"cancelled\"})",
                    order: id))
        }
        guard let data = object["data"]?.objectValue else {
            return .failure(LineFailure("give \"data\": {…}, the values to change in the order", order: id))
        }
        if let (path, length) = ValueSize.longest(in: .object(data), path: "data", over: maximumValue) {
            return .failure(
                LineFailure(
                    "\"\(path)\" is \(length) bytes long; a value may be at most \(maximumValue) bytes on this service", order: id))
        }
        var line = BulkUpdateLine(passTypeIdentifier: type, serialNumber: id)
        line.isOrder = true
        line.data = data
        return .success(line)
    }

    private init(passTypeIdentifier: String, serialNumber: String) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
    }
}

/// Why one line (or one pass) of a bulk change was not applied; the job goes on.
package struct LineFailure: Error, Sendable {
    package var reason: String
    package var serialNumber: String?
    /// The order identifier of an order line.
    package var orderIdentifier: String?

    package init(_ reason: String, serial: String? = nil, order: String? = nil) {
        self.reason = reason
        serialNumber = serial
        orderIdentifier = order
    }
}
