import Passmint

/// The Apple Watch view: logo and `logoText`, header fields, then primary, secondary and auxiliary fields top to
/// bottom (a boarding pass's primary values on one line around the transit glyph, their labels joined with "to", and
/// its auxiliary fields above its secondary ones), the footer, and the barcode last. The Watch shows no strip,
/// thumbnail or back, no `altText`, and no Code 128 (it takes the next barcode).
extension PreviewPage {
    func watch() -> String {
        guard let style = card.style else { return "" }
        var html = "<article class=\"pass watch-card style-\(style.rawValue)\(stateClasses)\" id=\"watch-card\" style=\"\(colorStyle)\">"
        if style == .eventTicket, !images.has("strip"), let uri = images.dataURI("background") {
            html += "<div class=\"background-image\" style=\"background-image: url('\(uri)')\"></div>"
        }
        html += top()
        if style == .boardingPass {
            html += watchBoardingPrimary() + row(card.auxiliary, "auxiliary") + row(card.secondary, "secondary") + image("footer")
        } else {
            html += row(card.primary, "primary") + row(card.secondary, "secondary") + row(card.auxiliary, "auxiliary")
        }
        return html + "<div class=\"bottom\">\(barcodeBlock(watch: true))</div></article>"
    }

    /// A boarding pass's primary fields on the Watch: `MUC ✈ LIS` under `MUNICH TO LISBON`.
    func watchBoardingPrimary() -> String {
        guard card.primary.count == 2 else { return boardingPrimary() }
        let (from, to) = (card.primary[0], card.primary[1])
        let joined = PreviewField(
            key: from.key + "+" + to.key, label: from.label + " " + PreviewWords.text("to", language: deviceLanguage) + " " + to.label,
            value: "", alignment: "start", row: 0)
        return """
            <div class="fields primary boarding-watch"><div class="field" data-key="\(HTMLText.escape(joined.key))" data-area="primary">\
            <div class="label">\(HTMLText.escape(joined.label))</div><div class="value">\(HTMLText.escape(from.value)) \
            <span class="transit" data-transit="\(card.transitType?.rawValue ?? "none")">\(TransitGlyph.svg(card.transitType))</span> \
            \(HTMLText.escape(to.value))</div></div></div>
            """
    }
}
