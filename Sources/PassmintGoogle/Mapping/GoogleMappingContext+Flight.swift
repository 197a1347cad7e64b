import Foundation
import Passmint

extension GoogleMappingContext {
    /// A flight: the class is the flight (carrier, number, airports, times: from the semantic tags when the pass has
    /// them, else from the fields), the object the passenger's boarding pass.
    mutating func mapFlight() {
        let semantics = pass["semantics"]?.objectValue ?? JSONObject()
        let flightField = claim(["flight", "flightNumber"])
        var carrier = semantics["airlineCode"]?.stringValue
        var number = semantics["flightNumber"].map { $0.stringValue ?? $0.numberValue?.text ?? "" }
        if carrier == nil || number == nil, let flight = flightField.map({ text($0) }) {
            let compact = flight.replacingOccurrences(of: " ", with: "")
            carrier = carrier ?? String(compact.prefix(2))
            number = number ?? String(compact.dropFirst(2))
        }
        var header = classBody["flightHeader"]?.objectValue ?? JSONObject()
        var carrierObject = header["carrier"]?.objectValue ?? JSONObject()
        carrierObject["carrierIataCode"] = .string(carrier ?? "")
        header["carrier"] = .object(carrierObject)
        header["flightNumber"] = .string(number ?? "")
        classBody["flightHeader"] = .object(header)
        if carrier == nil { report(styleKey, "no flight number: Google needs the carrier and number", fix: "add a field with key flight") }

        var origin: JSONObject = [:]
        var destination: JSONObject = [:]
        let originCode = semantics["departureAirportCode"]?.stringValue ?? claim(["origin", "from"], back: false).map { text($0) }
        let destinationCode =
            semantics["destinationAirportCode"]?.stringValue ?? claim(["destination", "to"], back: false).map { text($0) }
        origin["airportIataCode"] = .string(originCode ?? "")
        destination["airportIataCode"] = .string(destinationCode ?? "")
        if let gate = claim(["gate", "departureGate"]) { origin["gate"] = .string(text(gate)) }
        if let terminal = claim(["terminal", "departureTerminal"]) { origin["terminal"] = .string(text(terminal)) }
        classBody["origin"] = .object(origin)
        classBody["destination"] = .object(destination)

        let departure = semantics["originalDepartureDate"]?.stringValue ?? claim(["departs", "departure", "departureTime"]).map(\.text)
        if let departure { classBody["localScheduledDepartureDateTime"] = .string(Self.localDateTime(departure)) }
        if let boarding = semantics["originalBoardingDate"]?.stringValue ?? claim(["boarding", "boardingTime"]).map(\.text) {
            classBody["localBoardingDateTime"] = .string(Self.localDateTime(boarding))
        }
        if let arrival = semantics["originalArrivalDate"]?.stringValue ?? claim(["arrival", "arrives", "arrivalTime"]).map(\.text) {
            classBody["localScheduledArrivalDateTime"] = .string(Self.localDateTime(arrival))
        }
        flightClassSuffix = "\(carrier ?? "")\(number ?? "").\(departure.map { String(Self.localDateTime($0).prefix(10)) } ?? "")"

        objectBody["passengerName"] = .string(passengerName(semantics) ?? "")
        var seating = JSONObject()
        if let seat = claim(["seat", "seatNumber"]) { seating["seatNumber"] = .string(text(seat)) }
        if let group = claim(["group", "boardingGroup"]) { seating["boardingGroup"] = .string(text(group)) }
        if let seatClass = claim(["class", "travelClass", "cabin", "fareClass"]) { seating["seatClass"] = .string(text(seatClass)) }
        if !seating.keys.isEmpty { objectBody["boardingAndSeatingInfo"] = .object(seating) }
        let confirmation = claim(["bookingReference", "confirmationCode", "pnr", "booking"])
        objectBody["reservationInfo"] = ["confirmationCode": .string(confirmation.map { text($0) } ?? "")]
        if semantics.count > 0 {
            report(
                "semantics", "Google reads the flight, airports and times from these tags; the other semantic tags do not carry over",
                fix: "nothing to do")
        }
        handledKeys.insert("semantics")
    }

    private mutating func passengerName(_ semantics: JSONObject) -> String? {
        if let name = semantics["passengerName"]?.objectValue {
            let parts = [name["givenName"]?.stringValue, name["familyName"]?.stringValue].compactMap { $0 }
            if !parts.isEmpty {
                _ = claim(["passenger", "passengerName", "name"], back: false)
                return parts.joined(separator: " ")
            }
        }
        return claim(["passenger", "passengerName", "name"]).map { text($0) }
    }
}
