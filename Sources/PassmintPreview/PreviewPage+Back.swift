import Foundation
import Passmint

/// The back of the pass: its back fields in order, long text with its line breaks; a poster event ticket also lists
/// its `additionalInfoFields` and the later events of `upcomingPassInformation`.
extension PreviewPage {
    /// The back card.
    func backSide() -> String {
        var html = "<article class=\"pass back\(stateClasses)\" id=\"back\">"
        html += "<h3>\(HTMLText.escape(card.organizationName))</h3>"
        func list(_ fields: [PreviewField], _ area: String) -> String {
            fields.map { field in
                let value = PreviewLinks.html(field.value, attributed: field.attributedValue, detectors: field.detectors)
                return """
                    <div class="back-field" data-key="\(HTMLText.escape(field.key))" data-area="\(area)">\
                    <div class="label">\(HTMLText.escape(field.label))</div><div class="value">\(value)</div></div>
                    """
            }.joined()
        }
        if card.kind == .posterEventTicket && !card.additionalInfo.isEmpty {
            html +=
                "<h4>\(HTMLText.escape(PreviewWords.text("Additional Info", language: deviceLanguage)))</h4>"
                + list(card.additionalInfo, "additionalInfo")
        }
        html += list(card.back, "back")
        if card.kind == .posterEventTicket { html += upcomingEvents() }
        if card.back.isEmpty && card.additionalInfo.isEmpty { html += "<p class=\"empty\">This pass has no back fields.</p>" }
        return html + "</article>"
    }

    /// `upcomingPassInformation`: each later event's name and date (in its own time zone), "Date to be announced"
    /// without one.
    func upcomingEvents() -> String {
        let entries = (preview.passJSON["upcomingPassInformation"]?.arrayValue ?? []).compactMap(\.objectValue)
        guard !entries.isEmpty else { return "" }
        var html = "<h4>\(HTMLText.escape(PreviewWords.text("Upcoming events", language: deviceLanguage)))</h4>"
        for (index, entry) in entries.enumerated() {
            let name = entry["name"]?.stringValue.map(strings.localized) ?? "Event \(index + 1)"
            var when = PreviewWords.text("Date to be announced", language: deviceLanguage)
            if let info = entry["dateInformation"]?.objectValue, let text = info["date"]?.stringValue, let date = W3CDate.parse(text) {
                let zone = info["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:))
                let local = PreviewFormatter(language: deviceLanguage, timeZone: zone ?? formatter.timeZone, now: formatter.now)
                let allDay = info["isAllDay"]?.boolValue == true || info["ignoreTimeComponents"]?.boolValue == true
                let unannounced = info["isUnannounced"]?.boolValue == true
                when = local.format(
                    date: date, source: text, dateStyle: .medium, timeStyle: allDay || unannounced ? .none : .short, relative: false,
                    ignoresTimeZone: zone == nil)
                if unannounced { when += " · " + PreviewWords.text("Time to be announced", language: deviceLanguage) }
            }
            let key = entry["identifier"]?.stringValue ?? "upcoming-\(index)"
            html += """
                <div class="back-field" data-key="\(HTMLText.escape(key))" data-area="upcoming">\
                <div class="label">\(HTMLText.escape(name))</div><div class="value">\(HTMLText.escape(when))</div></div>
                """
        }
        return html
    }
}
