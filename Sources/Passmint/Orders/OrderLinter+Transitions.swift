extension OrderCheck {
    /// Statuses an order or fulfillment cannot leave for the ones listed: what Wallet has shown as done cannot become
    /// pending again.
    static let orderDeadEnds: [String: Set<String>] = ["completed": ["open"], "cancelled": ["open", "completed"]]
    static let shippingDeadEnds: [String: Set<String>] = [
        "delivered": ["open", "processing", "onTheWay", "shipped", "outForDelivery"],
        "cancelled": ["open", "processing", "onTheWay", "shipped", "outForDelivery", "delivered"],
    ]
    static let pickupDeadEnds: [String: Set<String>] = [
        "pickedUp": ["open", "processing", "readyForPickup"],
        "cancelled": ["open", "processing", "readyForPickup", "pickedUp"],
    ]

    /// The rules between two versions of an order.
    mutating func transition(from previous: JSONObject, to json: JSONObject) {
        for key in ["orderTypeIdentifier", "orderIdentifier"] where previous[key] != nil && previous[key] != json[key] {
            error(
                "order-identity-changed", key,
                "\(key) was \(Self.shown(previous[key]!)) and is now \(json[key].map(Self.shown) ?? "missing"): it names the order and cannot change",
                fix: "keep \(key); a different order is a new order")
        }
        if previous["createdAt"] != nil, previous["createdAt"] != json["createdAt"] {
            warning(
                "order-created-at-changed", "createdAt", "createdAt changed from \(Self.shown(previous["createdAt"]!))",
                fix: "keep the time the order was placed")
        }
        let before = previous["updatedAt"]?.stringValue
        let after = json["updatedAt"]?.stringValue
        if after == nil {
            error(
                "order-required-key", "updatedAt", "the required key updatedAt is missing", fix: "set updatedAt to the time of this version"
            )
        } else if let before, let after, let old = RFC3339Date.parse(before), let new = RFC3339Date.parse(after), new <= old {
            error(
                "order-updated-at", "updatedAt", "updatedAt \(after) is not later than the previous version's \(before)",
                fix: "set updatedAt to the time of this change; Wallet keeps the version with the later updatedAt")
        }
        status(previous["status"]?.stringValue, json["status"]?.stringValue, at: "status", deadEnds: Self.orderDeadEnds, what: "an order")
        let old = Dictionary(
            (previous["fulfillments"]?.arrayValue ?? []).compactMap { entry in
                entry["fulfillmentIdentifier"]?.stringValue.map { ($0, entry) }
            },
            uniquingKeysWith: { first, _ in first })
        for (index, fulfillment) in (json["fulfillments"]?.arrayValue ?? []).enumerated() {
            guard let identifier = fulfillment["fulfillmentIdentifier"]?.stringValue, let earlier = old[identifier] else { continue }
            let deadEnds = fulfillment["fulfillmentType"]?.stringValue == "pickup" ? Self.pickupDeadEnds : Self.shippingDeadEnds
            status(
                earlier["status"]?.stringValue, fulfillment["status"]?.stringValue, at: "fulfillments[\(index)].status", deadEnds: deadEnds,
                what: "a fulfillment")
        }
    }

    private mutating func status(_ before: String?, _ after: String?, at path: String, deadEnds: [String: Set<String>], what: String) {
        guard let before, let after, deadEnds[before]?.contains(after) == true else { return }
        error(
            "order-status-transition", path, "the status goes from \(before) back to \(after), which \(what) cannot do",
            fix: "keep \(before) (or describe the change in statusDescription); a new purchase is a new order")
    }
}
