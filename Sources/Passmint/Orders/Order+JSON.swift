import Foundation

extension Order {
    /// Reads an order from `order.json`'s bytes. Errors give the line and column, or the JSON path that is wrong.
    public init(data: some Collection<UInt8>, source: String = "order.json") throws(PassmintError) {
        let value: JSONValue
        do {
            value = try JSONParser.value(data)
        } catch {
            throw PassmintError(.invalidOrder, "\(source): \(error)")
        }
        guard let object = value.objectValue else {
            throw PassmintError(.invalidOrder, "\(source) holds \(value.typeName), not a JSON object: an order is one object {…}")
        }
        try self.init(json: object, source: source)
    }

    /// Decodes an order from its JSON object. Errors name the key path that is wrong.
    public init(json: JSONObject, source: String = "order.json") throws(PassmintError) {
        do {
            self = try JSONDecoder().decode(Order.self, from: Data(JSONWriter.data(.object(json), style: .compact)))
            layout = JSONLayout(source: .object(json))
        } catch let error as DecodingError {
            throw PassmintError(.invalidOrder, "\(source): \(Pass.describe(error))")
        } catch {
            throw PassmintError(.invalidOrder, "\(source): \(error)")
        }
    }

    /// The order as a JSON object: in the order of the JSON it was read from, with the nested keys the model does not
    /// know put back where they were; keys sorted for an order made in code.
    public func jsonObject() throws(PassmintError) -> JSONObject {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let written = try JSONParser.value(Array(try encoder.encode(self)))
            guard let source = layout.source else { return written.objectValue ?? JSONObject() }
            return written.keepingUnknownMembers(of: source).laidOut(like: source).objectValue ?? JSONObject()
        } catch {
            throw PassmintError(.invalidOrder, "cannot encode the order: \(error)")
        }
    }

    /// `order.json`'s bytes, pretty-printed.
    public func data() throws(PassmintError) -> [UInt8] { JSONWriter.data(.object(try jsonObject())) }

    /// Every key the nested objects of the model know: a key of `source` outside this set, missing from what the
    /// model wrote, is one the model could not hold, and is put back.
    static let nestedModelKeys: Set<String> = [
        "amount", "currency", "addressLines", "locality", "subLocality", "administrativeArea", "subAdministrativeArea",
        "postalCode", "countryCode", "latitude", "longitude", "merchantIdentifier", "displayName", "url", "logo",
        "businessChatURL", "address", "givenName", "familyName", "emailAddress", "phoneNumber", "organizationName",
        "storeIdentifier", "customProductPageIdentifier", "format", "message", "messageEncoding", "altText", "total", "status",
        "summaryItems", "paymentMethods", "transactions", "label", "value", "transactionType", "createdAt", "paymentMethod",
        "title", "subtitle", "quantity", "image", "price", "gtin", "sku", "fulfillmentType", "fulfillmentIdentifier",
        "statusDescription", "shippingType", "carrier", "trackingNumber", "trackingURL", "shippedAt", "estimatedDeliveryAt",
        "estimatedDeliveryWindowDuration", "deliveredAt", "recipient", "lineItems", "notes", "location", "pickupAt",
        "pickupWindowDuration", "pickedUpAt", "barcode", "instructions", "returnIdentifier", "initiatedAt", "dropOffBy",
        "returnManagementURL", "returnPolicyURL", "returnDeadline", "displayCountdown",
    ]
}

extension JSONValue {
    /// This value with the members of `source`'s nested objects that the order model does not know (and so did not
    /// write) added back; arrays are matched by position.
    fileprivate func keepingUnknownMembers(of source: JSONValue, nested: Bool = false) -> JSONValue {
        switch (self, source) {
        case (.object(var object), .object(let model)):
            for member in model {
                if let value = object[member.key] {
                    object[member.key] = value.keepingUnknownMembers(of: member.value, nested: true)
                } else if nested && !Order.nestedModelKeys.contains(member.key) {
                    object[member.key] = member.value
                }
            }
            return .object(object)
        case (.array(let array), .array(let model)):
            return .array(
                array.enumerated().map { index, element in
                    index < model.count ? element.keepingUnknownMembers(of: model[index], nested: true) : element
                })
        default:
            return self
        }
    }
}
