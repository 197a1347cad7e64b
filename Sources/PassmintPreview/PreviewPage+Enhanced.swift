import Foundation
import Passmint

/// The enhanced layouts Wallet draws from semantic tags: the iOS 18 poster event ticket and the iOS 26 semantic
/// boarding pass. Used only when the pass asks for them and meets their rules (``PreviewLayout/kind(style:schemes:diagnostics:)``).
extension PreviewPage {
    func posterFront() -> String {
        var style = colorStyle
        if preview.passJSON["useAutomaticColors"]?.boolValue == true {
            // Wallet picks the colours from the artwork and ignores foregroundColor and labelColor.
            style =
                "--bg: \((card.background ?? PreviewColor(red: 28, green: 28, blue: 30)).css); --fg: rgb(255, 255, 255); "
                + "--label: rgba(255, 255, 255, 0.7)"
        }
        if let footer = PreviewColor(preview.passJSON["footerBackgroundColor"]?.stringValue) { style += "; --footer: \(footer.css)" }
        var html = "<article class=\"pass front poster kind-posterEventTicket\(stateClasses)\" id=\"front\" style=\"\(style)\">"
        let artwork = images.dataURI("artwork").map { " style=\"background-image: url('\($0)')\"" } ?? ""
        let darkening = preview.passJSON["suppressHeaderDarkening"]?.boolValue == true ? "" : " darkened"
        html += "<div class=\"artwork\(darkening)\"\(artwork)><div class=\"poster-top\">"
        if images.has("primaryLogo") {
            html += image("primaryLogo", alt: card.organizationName)
        } else if let text = preview.passJSON["eventLogoText"]?.stringValue {
            html += "<span class=\"logo-text\">\(HTMLText.escape(strings.localized(text)))</span>"
        }
        html += image("secondaryLogo") + "</div><div class=\"poster-title\">"
        html += "<div class=\"event-name\">\(HTMLText.escape(card.tag("eventName").map(strings.localized) ?? ""))</div>"
        if let performers = card.tag("performerNames") { html += "<div class=\"performers\">\(HTMLText.escape(performers))</div>" }
        html += "</div></div><div class=\"poster-details\">"
        var details: [PreviewField] = []
        if let start = card.tag("eventStartDate"), let date = W3CDate.parse(start) {
            let text = formatter.format(
                date: date, source: start, dateStyle: .medium, timeStyle: .short, relative: false, ignoresTimeZone: false)
            details.append(semanticField("eventStartDate", "Date", text))
        }
        let venue = [card.tag("venueName"), card.tag("venueRoom")].compactMap { $0 }.joined(separator: " · ")
        if !venue.isEmpty { details.append(semanticField("venueName", "Venue", venue)) }
        if let region = card.tag("venueRegionName") { details.append(semanticField("venueRegionName", "Location", region)) }
        html += row(details, "poster-info")
        html += row(seatFields(), "seats")
        var people: [PreviewField] = []
        if let name = card.tag("attendeeName") { people.append(semanticField("attendeeName", "Name", name)) }
        if let level = card.tag("admissionLevel") { people.append(semanticField("admissionLevel", "Admission", level)) }
        html += row(people, "attendee")
        return html + "</div><div class=\"bottom poster-footer\">\(barcodeBlock(watch: false))</div></article>"
    }

    func semanticBoardingFront() -> String {
        var html =
            "<article class=\"pass front semantic-boarding kind-semanticBoardingPass\(stateClasses)\" id=\"front\" style=\"\(colorStyle)\">"
        html += top() + "<div class=\"route\">"
        html += airport("departure", code: "departureAirportCode", city: "departureCityName", date: "originalDepartureDate")
        html += "<div class=\"transit\" data-transit=\"\(TransitType.air.rawValue)\">\(TransitGlyph.svg(.air))</div>"
        html += airport("destination", code: "destinationAirportCode", city: "destinationCityName", date: "originalArrivalDate") + "</div>"
        var info: [PreviewField] = []
        if let gate = card.tag("departureGate") { info.append(semanticField("departureGate", "Gate", gate)) }
        if let terminal = card.tag("departureTerminal") { info.append(semanticField("departureTerminal", "Terminal", terminal)) }
        if let boarding = time("originalBoardingDate", zone: "departureLocationTimeZone") {
            info.append(semanticField("originalBoardingDate", "Boarding", boarding))
        }
        if let group = card.tag("boardingGroup") { info.append(semanticField("boardingGroup", "Group", group)) }
        html += row(info, "flight-info") + row(seatFields(), "seats")
        var passenger: [PreviewField] = []
        if let name = card.tag("passengerName") { passenger.append(semanticField("passengerName", "Passenger", name)) }
        let flight = card.tag("flightCode") ?? [card.tag("airlineCode"), card.tag("flightNumber")].compactMap { $0 }.joined()
        if !flight.isEmpty { passenger.append(semanticField("flightCode", "Flight", flight)) }
        if let fare = card.tag("ticketFareClass") { passenger.append(semanticField("ticketFareClass", "Class", fare)) }
        html += row(passenger, "passenger")
        return html + "<div class=\"bottom\">\(barcodeBlock(watch: false))</div></article>"
    }

    /// One end of the flight: airport code, city, and local time.
    private func airport(_ role: String, code: String, city: String, date: String) -> String {
        let zone = role == "departure" ? "departureLocationTimeZone" : "destinationLocationTimeZone"
        return """
            <div class="airport" data-role="\(role)"><div class="code">\(HTMLText.escape(card.tag(code) ?? ""))</div>\
            <div class="city">\(HTMLText.escape(card.tag(city) ?? ""))</div>\
            <div class="time">\(HTMLText.escape(time(date, zone: zone) ?? ""))</div></div>
            """
    }

    /// A semantic date's time in the airport's own time zone (`…TimeZone` tag), as a boarding pass prints it: the
    /// `current…` date (a delay) when the pass has one, else the `original…` one.
    private func time(_ tag: String, zone: String) -> String? {
        let current = tag.replacingOccurrences(of: "original", with: "current")
        guard let text = card.tag(current) ?? card.tag(tag), let date = W3CDate.parse(text) else { return nil }
        let timeZone = (card.tag(zone) ?? card.tag(zone.replacingOccurrences(of: "Location", with: "Airport"))).flatMap(
            TimeZone.init(identifier:))
        let local = PreviewFormatter(language: deviceLanguage, timeZone: timeZone ?? formatter.timeZone, now: formatter.now)
        return local.format(
            date: date, source: text, dateStyle: .none, timeStyle: .short, relative: false, ignoresTimeZone: timeZone == nil)
    }

    /// Section, row and seat of the first seat in `semantics.seats`.
    private func seatFields() -> [PreviewField] {
        guard let seat = preview.passJSON["semantics"]?["seats"]?.arrayValue?.first?.objectValue else { return [] }
        return [("seatSection", "Section"), ("seatRow", "Row"), ("seatNumber", "Seat")].compactMap { key, label in
            let value = seat[key]?.stringValue ?? seat[key]?.numberValue?.description
            return value.map { semanticField("seats.\(key)", label, $0) }
        }
    }

    /// A field drawn from a semantic tag, labelled in the pass's language.
    func semanticField(_ key: String, _ label: String, _ value: String) -> PreviewField {
        PreviewField(
            key: "semantics.\(key)", label: PreviewWords.text(label, language: deviceLanguage), value: value, alignment: "start", row: 0)
    }
}
