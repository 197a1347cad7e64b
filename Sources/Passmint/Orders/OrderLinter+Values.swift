import Foundation

extension OrderCheck {
    /// `fulfillments`: each a shipping or a pickup, with its own identifier (unique) and status.
    mutating func fulfillments(_ json: JSONObject) {
        var seen: [String: String] = [:]
        for (path, fulfillment) in objects(json, "fulfillments", at: "") {
            if let identifier = string(fulfillment, "fulfillmentIdentifier", at: path, required: true) {
                if let first = seen[identifier] {
                    error(
                        "order-duplicate-identifier", Self.join(path, "fulfillmentIdentifier"),
                        "fulfillmentIdentifier \"\(MessageText.cut(identifier))\" is also the identifier of \(first)",
                        fix: "give each fulfillment its own identifier")
                }
                seen[identifier] = seen[identifier] ?? path
            }
            let type = string(fulfillment, "fulfillmentType", at: path, required: true)
            allowed(type, ["shipping", "pickup"], at: Self.join(path, "fulfillmentType"), what: "fulfillmentType")
            let status = string(fulfillment, "status", at: path, required: true)
            for key in ["statusDescription", "notes"] { _ = string(fulfillment, key, at: path) }
            for (itemPath, item) in objects(fulfillment, "lineItems", at: path) { lineItem(item, at: itemPath) }
            switch type {
            case "shipping":
                allowed(
                    status, Order.ShippingFulfillment.Status.known.map(\.rawValue), at: Self.join(path, "status"), what: "shipping status")
                allowed(
                    string(fulfillment, "shippingType", at: path), ["shipping", "delivery"], at: Self.join(path, "shippingType"),
                    what: "shippingType")
                for key in ["carrier", "trackingNumber"] { _ = string(fulfillment, key, at: path) }
                https(string(fulfillment, "trackingURL", at: path), at: Self.join(path, "trackingURL"))
                for key in ["shippedAt", "estimatedDeliveryAt", "deliveredAt"] {
                    _ = date(string(fulfillment, key, at: path), at: Self.join(path, key))
                }
                duration(
                    string(fulfillment, "estimatedDeliveryWindowDuration", at: path), at: Self.join(path, "estimatedDeliveryWindowDuration")
                )
                if status == "delivered", fulfillment["deliveredAt"] == nil {
                    warning(
                        "order-delivered-at", Self.join(path, "deliveredAt"), "the shipment is delivered but has no deliveredAt",
                        fix: "add deliveredAt (RFC 3339), which Wallet shows")
                }
            case "pickup":
                allowed(status, Order.PickupFulfillment.Status.known.map(\.rawValue), at: Self.join(path, "status"), what: "pickup status")
                for key in ["pickupAt", "pickedUpAt"] { _ = date(string(fulfillment, key, at: path), at: Self.join(path, key)) }
                duration(string(fulfillment, "pickupWindowDuration", at: path), at: Self.join(path, "pickupWindowDuration"))
                if fulfillment["pickupWindowDuration"] != nil, fulfillment["pickupAt"] == nil {
                    error(
                        "order-required-key", Self.join(path, "pickupAt"),
                        "pickupWindowDuration is set without pickupAt, where the window starts",
                        fix: "add pickupAt (RFC 3339)")
                }
                if let barcode = object(fulfillment, "barcode", at: path) { self.barcode(barcode, at: Self.join(path, "barcode")) }
            default:
                break
            }
        }
    }

    /// An RFC 3339 date; a finding when the text is not one.
    mutating func date(_ text: String?, at path: String) -> Date? {
        guard let text else { return nil }
        if let date = RFC3339Date.parse(text) { return date }
        error(
            "order-date", path, "\"\(MessageText.cut(text))\" is not an RFC 3339 date-time",
            fix: "write a date, time with seconds and zone, e.g. 2026-11-26T09:30:00Z or 2026-11-26T10:30:00+01:00")
        return nil
    }

    /// An `https` URL; a finding otherwise.
    mutating func https(_ text: String?, at path: String) {
        guard let text else { return }
        let url = URL(string: text)
        if url?.scheme?.lowercased() != "https" || url?.host?.isEmpty != false {
            error("order-url", path, "\"\(MessageText.cut(text))\" is not an https URL", fix: "use an https:// address")
        }
    }

    /// An ISO 8601 duration (``ISO8601Duration``); a finding otherwise.
    mutating func duration(_ text: String?, at path: String) {
        guard let text, !ISO8601Duration.isValid(text) else { return }
        error(
            "order-duration", path, "\"\(MessageText.cut(text))\" is not an ISO 8601 duration",
            fix: "write P, the date parts (Y, M, W, D), then T and the time parts (H, M, S): e.g. PT2H for two hours, P1DT4H for a "
                + "day and four hours")
    }
}
