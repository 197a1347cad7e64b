/// The Apple Watch view: logo and `logoText`, header fields, then primary, secondary and
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
}
