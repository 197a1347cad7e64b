public import Passmint
public import PassmintStore

/// What the issuing API answers about an order: the stored order, its data, the devices registered for it and, for a
/// change, whether it changed and how many pushes it owes; for a read, where each device's push stands.
public struct OrderMetadata: Sendable {
    /// The order as stored: a document of the passes' store (its type and serial are the order type identifier and the
    /// order identifier).
    public var order: StoredPass
    public var data: JSONObject
    public var registrations: Int
    /// For a change: false when the data was the stored data (nothing written, no push).
    public var changed: Bool?
    /// For a change: the devices owed a push.
    public var queuedPushes: Int?
    /// For a read: each registered device's push state.
    public var pushes: [DevicePushState]?

    /// As JSON: `orderTypeIdentifier`, `orderIdentifier`, `authenticationToken`, `template`, `updateTag` (a string),
    /// `updatedAt` (RFC 3339), `lastModified` (HTTP date), `url`, `data`, `registrations`; `changed` and `push`
    /// (`{"queued": n}`) for a change; `pushes` (`{"pending", "delivered", "failed", "devices": [...]}`) for a read;
    /// `links` (`download`, `add`) when the service has a link secret.
    func json(publicURL: String, links: PassLinks.Links? = nil) -> JSONValue {
        var object: JSONObject = [
            "orderTypeIdentifier": .string(order.passTypeIdentifier), "orderIdentifier": .string(order.serialNumber),
            "authenticationToken": .string(order.authenticationToken),
            "template": .string(OrderTemplateCatalog.canonicalName(order.template)),
            "updateTag": .string(String(order.updateTag)), "updatedAt": .string(RFC3339Date.string(from: order.updatedAt)),
            "lastModified": .string(HTTPDate.string(order.updatedAt)),
            "url": .string(publicURL + "/v1/orders/\(order.passTypeIdentifier)/\(order.serialNumber)"),
            "data": .object(data), "registrations": .number(JSONNumber(registrations)),
        ]
        if let links { object["links"] = ["download": .string(links.download), "add": .string(links.add)] }
        if let changed { object["changed"] = .bool(changed) }
        if let queuedPushes { object["push"] = ["queued": .number(JSONNumber(queuedPushes))] }
        if let pushes {
            func parsed(_ text: String?) -> JSONValue { text.flatMap { try? JSONParser.value(Array($0.utf8)) } ?? .null }
            func count(_ result: String) -> Int {
                pushes.filter { !$0.pending && parsed($0.lastResultJSON)["result"]?.stringValue == result }.count
            }
            let devices: [JSONValue] = pushes.map {
                ["device": .string($0.deviceLibraryIdentifier), "pending": .bool($0.pending), "last": parsed($0.lastResultJSON)]
            }
            object["pushes"] = [
                "pending": .number(JSONNumber(pushes.filter(\.pending).count)), "delivered": .number(JSONNumber(count("delivered"))),
                "failed": .number(JSONNumber(count("failed"))), "devices": .array(devices),
            ]
        }
        return .object(object)
    }
}
