/// The back of the pass, and the Apple Watch view: logo and `logoText`, header fields, then primary, secondary and
/// auxiliary fields top to bottom (a boarding pass's auxiliary fields above its secondary ones), the footer, and the
/// barcode last. The Watch shows no strip, thumbnail or back, no `altText`, and no Code 128 (it takes the next barcode).
extension PreviewPage {
    func watch() -> String {
        guard let style = card.style else { return "" }
        var html = "<article class=\"pass watch-card style-\(style.rawValue)\(stateClasses)\" id=\"watch-card\" style=\"\(colorStyle)\">"
        if style == .eventTicket, !images.has("strip"), let uri = images.dataURI("background") {
            html += "<div class=\"background-image\" style=\"background-image: url('\(uri)')\"></div>"
        }
        html += top()
        if style == .boardingPass {
            html += boardingPrimary() + row(card.auxiliary, "auxiliary") + row(card.secondary, "secondary") + image("footer")
        } else {
            html += row(card.primary, "primary") + row(card.secondary, "secondary") + row(card.auxiliary, "auxiliary")
        }
        return html + "<div class=\"bottom\">\(barcodeBlock(watch: true))</div></article>"
    }

    /// Back fields in order, long text with its line breaks; poster tickets also list `additionalInfoFields`.
    func backSide() -> String {
        var html = "<article class=\"pass back\(stateClasses)\" id=\"back\">"
        html += "<h3>\(HTMLText.escape(card.organizationName))</h3>"
        func list(_ fields: [PreviewField], _ area: String) -> String {
            fields.map { field in
                """
                <div class="back-field" data-key="\(HTMLText.escape(field.key))" data-area="\(area)">\
                <div class="label">\(HTMLText.escape(field.label))</div>\
                <div class="value">\(HTMLText.escapeKeepingLines(field.value))</div></div>
                """
            }.joined()
        }
        if card.kind == .posterEventTicket && !card.additionalInfo.isEmpty {
            html += "<h4>Additional Info</h4>" + list(card.additionalInfo, "additionalInfo")
        }
        html += list(card.back, "back")
        if card.back.isEmpty && card.additionalInfo.isEmpty { html += "<p class=\"empty\">This pass has no back fields.</p>" }
        return html + "</article>"
    }
}
