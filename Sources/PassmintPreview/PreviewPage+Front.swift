import Passmint

/// The front of the pass on the phone, in the classic layout of its style (or an enhanced one: see
/// `PreviewPage+Enhanced`).
extension PreviewPage {
    func front() -> String {
        guard let style = card.style else {
            return
                "<article class=\"pass front unreadable\" id=\"front\">"
                + "<p>pass.json could not be read: see the findings below.</p></article>"
        }
        switch card.kind {
        case .posterEventTicket: return posterFront()
        case .semanticBoardingPass: return semanticBoardingFront()
        case .classic: break
        }
        let hasStrip = images.has("strip")
        let slots = PreviewLayout.images(style: style, hasStrip: hasStrip)
        var html = "<article class=\"pass front style-\(style.rawValue) kind-classic\(stateClasses)\" id=\"front\" style=\"\(colorStyle)\">"
        if slots.contains("background"), let uri = images.dataURI("background") {
            html += "<div class=\"background-image\" style=\"background-image: url('\(uri)')\"></div>"
        }
        html += top()
        switch style {
        case .boardingPass:
            html += boardingPrimary() + row(card.auxiliary, "auxiliary") + row(card.secondary, "secondary")
            html += slots.contains("footer") ? image("footer") : ""
        case .coupon, .storeCard, .eventTicket, .generic:
            if slots.contains("strip"), let uri = images.dataURI("strip") {
                html += "<div class=\"strip\" style=\"background-image: url('\(uri)')\">\(row(card.primary, "primary"))</div>"
            } else if slots.contains("thumbnail"), images.has("thumbnail") {
                html += "<div class=\"with-thumbnail\"><div class=\"beside\">\(row(card.primary, "primary"))"
                html += (style == .eventTicket ? row(card.secondary, "secondary") : "") + "</div>\(image("thumbnail"))</div>"
                if style == .eventTicket { return html + rest(secondary: false) }
            } else {
                html += row(card.primary, "primary")
            }
            html += rest(secondary: true)
            return html
        }
        return html + "<div class=\"bottom\">\(barcodeBlock(watch: false))</div></article>"
    }

    /// Secondary and auxiliary fields (one row together when the style's limits say so), then the barcode.
    private func rest(secondary: Bool) -> String {
        var html = ""
        if card.limits.secondaryAndAuxiliary != nil {
            html += row((secondary ? card.secondary : []) + card.auxiliary, "secondary-auxiliary")
        } else {
            if secondary { html += row(card.secondary, "secondary") }
            html += row(card.auxiliary.filter { $0.row == 0 }, "auxiliary")
            html += row(card.auxiliary.filter { $0.row == 1 }, "auxiliary row-1")
        }
        return html + "<div class=\"bottom\">\(barcodeBlock(watch: false))</div></article>"
    }

    /// Logo, `logoText` and header fields.
    func top() -> String {
        var html = "<div class=\"top\"><div class=\"brand\">\(image("logo", alt: card.organizationName))"
        if let logoText = card.logoText { html += "<span class=\"logo-text\">\(HTMLText.escape(logoText))</span>" }
        return html + "</div>\(row(card.header, "header"))</div>"
    }

    /// A boarding pass's two primary fields with the transit glyph between them.
    func boardingPrimary() -> String {
        guard !card.primary.isEmpty else { return "" }
        var html = "<div class=\"fields primary boarding\">" + field(card.primary[0], "primary")
        html +=
            "<div class=\"transit\" data-transit=\"\(card.transitType?.rawValue ?? "none")\">\(TransitGlyph.svg(card.transitType))</div>"
        if card.primary.count > 1 { html += field(card.primary[1], "primary") }
        return html + "</div>"
    }
}
