import Foundation
import Passmint

extension GoogleMappingContext {
    /// Fills the style's own slots from the fields whose keys name them (`seat`, `gate`, `points`…).
    mutating func mapStyleSlots() {
        switch style {
        case .loyalty: mapLoyalty()
        case .giftCard: mapGiftCard()
        case .eventTicket: mapEventTicket()
        case .flight: mapFlight()
        case .transit: mapTransit()
        case .offer:
            classBody["title"] = .string(cardName)
            classBody["provider"] = .string(organizationName)
            classBody["redemptionChannel"] = pass["locations"] == nil ? "ONLINE" : "BOTH"
        case .generic:
            objectBody["cardTitle"] = localized(pass["logoText"]?.stringValue ?? pass["organizationName"]?.stringValue ?? "")
            if let main = claimFirst(in: "primaryFields") ?? claimFirst(in: "secondaryFields") {
                objectBody["header"] = localized(main.text)
                if let label = main.label { objectBody["subheader"] = localized(label) }
            } else {
                objectBody["header"] = localized(pass["organizationName"]?.stringValue ?? "")
            }
        }
    }

    private mutating func mapLoyalty() {
        classBody["programName"] = .string(cardName)
        if let field = claimNumber(in: "primaryFields") ?? claimNumber(in: "headerFields") { objectBody["loyaltyPoints"] = points(field) }
        if let field = claimNumber(in: "primaryFields") { objectBody["secondaryLoyaltyPoints"] = points(field) }
        if let name = claim(["member", "memberName", "name", "holder", "cardholder", "cardholderName", "accountName"]) {
            objectBody["accountName"] = .string(text(name))
        }
        if let id = claim(["memberId", "accountId", "account", "memberNumber", "cardNumber"]) {
            objectBody["accountId"] = .string(text(id))
        }
    }

    private mutating func mapGiftCard() {
        classBody["merchantName"] = .string(cardName)
        if let index = fields.firstIndex(where: { $0.isFront && $0.object["currencyCode"] != nil && $0.value.numberValue != nil }) {
            let field = fields.remove(at: index)
            let micros = Int(((field.value.numberValue?.doubleValue ?? 0) * 1_000_000).rounded())
            objectBody["balance"] = ["micros": .string(String(micros)), "currencyCode": field.object["currencyCode"] ?? "EUR"]
        }
        let number = claim(["cardNumber", "card", "number"])
        objectBody["cardNumber"] = .string(number.map { text($0) } ?? pass["serialNumber"]?.stringValue ?? "")
        if let pin = claim(["pin"]) { objectBody["pin"] = .string(text(pin)) }
    }

    private mutating func mapEventTicket() {
        classBody["eventName"] = localized(pass["logoText"]?.stringValue ?? pass["organizationName"]?.stringValue ?? "")
        var seat = JSONObject()
        for (slot, names) in [
            ("seat", ["seat"]), ("row", ["row", "seatRow"]), ("section", ["section", "block"]), ("gate", ["gate", "entrance", "door"]),
        ] {
            if let field = claim(names) { seat[slot] = localized(field.text) }
        }
        if !seat.keys.isEmpty { objectBody["seatInfo"] = .object(seat) }
        if let holder = claim(["attendee", "attendeeName", "holder", "ticketHolder", "name"]) {
            objectBody["ticketHolderName"] = .string(text(holder))
        }
        if let type = claim(["ticket", "ticketType", "admission", "admissionLevel"]) { objectBody["ticketType"] = localized(type.text) }
        if let order = claim(["orderNumber", "order", "confirmationCode", "bookingReference"]) {
            objectBody["reservationInfo"] = ["confirmationCode": .string(text(order))]
        }
    }

    private mutating func mapTransit() {
        let types = [
            "PKTransitTypeBus": "BUS", "PKTransitTypeTrain": "RAIL", "PKTransitTypeBoat": "FERRY", "PKTransitTypeGeneric": "OTHER",
        ]
        classBody["transitType"] = .string(types[pass["boardingPass"]?["transitType"]?.stringValue ?? ""] ?? "OTHER")
        objectBody["tripType"] = "ONE_WAY"
        var leg = JSONObject()
        if let origin = claim(["origin", "from", "departureStation"], back: false) {
            leg["originName"] = localized(origin.label ?? origin.text)
        }
        if let destination = claim(["destination", "to", "arrivalStation"], back: false) {
            leg["destinationName"] = localized(destination.label ?? destination.text)
        }
        if let departs = claim(["departs", "departure", "departureTime"]) {
            leg["departureDateTime"] = .string(Self.localDateTime(departs.text))
        }
        if let arrives = claim(["arrives", "arrival", "arrivalTime"]) {
            leg["arrivalDateTime"] = .string(Self.localDateTime(arrives.text))
        }
        if let platform = claim(["platform", "track"]) { leg["platform"] = .string(text(platform)) }
        if let carriage = claim(["carriage", "coach", "car"]) { leg["carriage"] = .string(text(carriage)) }
        if !leg.keys.isEmpty { objectBody["ticketLeg"] = .object(leg) }
        if let passenger = claim(["passenger", "passengerName", "name"]) { objectBody["passengerNames"] = .string(text(passenger)) }
    }

    /// A numeric front field, for points.
    private mutating func claimNumber(in area: String) -> GoogleMappedField? {
        guard let index = fields.firstIndex(where: { $0.area == area && $0.value.numberValue != nil }) else { return nil }
        return fields.remove(at: index)
    }

    /// `{"label", "balance"}`.
    private func points(_ field: GoogleMappedField) -> JSONValue {
        var points: JSONObject = ["balance": balance(field)]
        if let label = field.label { points["label"] = .string(localizer.text(label)) }
        return .object(points)
    }

    /// `{"int": 1250}`, `{"double": 4.5}` or `{"money": …}` for a points field.
    private func balance(_ field: GoogleMappedField) -> JSONValue {
        guard let number = field.value.numberValue else { return ["string": .string(text(field))] }
        if let currency = field.object["currencyCode"] {
            return ["money": ["micros": .string(String(Int((number.doubleValue * 1_000_000).rounded()))), "currencyCode": currency]]
        }
        if let integer = number.intValue { return ["int": .number(JSONNumber(integer))] }
        return ["double": .number(number)]
    }

    /// Google's local date-times have no offset: `2026-12-24T19:30:00+01:00` → `2026-12-24T19:30:00`.
    static func localDateTime(_ text: String) -> String {
        guard text.count >= 19, text.dropFirst(10).first == "T" else { return text }
        return String(text.prefix(19))
    }
}
