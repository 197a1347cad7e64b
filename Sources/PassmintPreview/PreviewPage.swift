import Foundation
import Passmint

/// The preview's HTML page: the phone's front and back, the Watch view and lint's findings.
struct PreviewPage {
    let preview: PassPreview
    let options: PassPreview.Options
    let strings: PreviewStrings
    let formatter: PreviewFormatter
    let images: PreviewImages
    let card: PreviewCard

    init(preview: PassPreview, options: PassPreview.Options) {
        self.preview = preview
        self.options = options
        strings = PreviewStrings(files: preview.files, requested: options.language)
        formatter = PreviewFormatter(options: options, strings: strings)
        images = PreviewImages(files: preview.files, strings: strings)
        card = PreviewCard(
            pass: preview.passJSON, strings: strings, formatter: formatter, diagnostics: preview.diagnostics, iOS27: options.iOS27Barcodes)
    }

    /// The language of the device the pass is shown on: the one asked for, else the pass's localization. Dates,
    /// numbers and the words the preview writes follow it even when the pass has no `.lproj` for it, as on a device.
    var deviceLanguage: String? { Self.deviceLanguage(options, strings) }

    static func deviceLanguage(_ options: PassPreview.Options, _ strings: PreviewStrings) -> String? {
        options.language.flatMap { $0.isEmpty ? nil : $0 } ?? strings.language
    }

    func html() -> String {
        let title = card.description.isEmpty ? preview.source : card.description
        var body = "<main class=\"devices\"><section class=\"device phone\" id=\"phone\"><h2>iPhone</h2>"
        if options.side != .back { body += front() }
        if options.side != .front { body += backSide() }
        body += "</section>"
        if options.showsWatch { body += "<section class=\"device watch\" id=\"watch\"><h2>Apple Watch</h2>\(watch())</section>" }
        if let google = options.googleCard { body += google }
        body += "</main>" + diagnosticsSection()
        return """
            <!DOCTYPE html>
            <html lang="\(HTMLText.escape(strings.language ?? deviceLanguage ?? "en"))"><head><meta charset="utf-8">\
            <meta name="viewport" content="width=device-width, initial-scale=1">\
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">\
            <title>\(HTMLText.escape(title)) — Passmint preview</title><style>\(PreviewStyleSheet.css)</style></head>
            <body><header class="page-header"><h1>\(HTMLText.escape(title))</h1><p class="source">\(HTMLText.escape(subtitle))</p></header>
            \(body)</body></html>

            """
    }

    var subtitle: String {
        var parts = [preview.source]
        if let style = card.style { parts.append(style.rawValue + (card.kind == .classic ? "" : " · \(card.kind.rawValue)")) }
        if let language = strings.language { parts.append("language \(language) of \(strings.languages.joined(separator: ", "))") }
        return parts.joined(separator: " · ")
    }

    /// The CSS custom properties of the card's colours: Wallet's defaults where the pass sets none.
    var colorStyle: String {
        let background = card.background ?? PreviewColor.defaultBackground
        let fallback = background.luminance < 0.5 ? PreviewColor(red: 255, green: 255, blue: 255) : PreviewColor(red: 0, green: 0, blue: 0)
        let foreground = card.foreground ?? fallback
        let label = card.label?.css ?? "color-mix(in srgb, \(foreground.css) 70%, transparent)"
        return "--bg: \(background.css); --fg: \(foreground.css); --label: \(label)"
    }

    var stateClasses: String { (card.voided ? " voided" : "") + (card.expired ? " expired" : "") }

    /// One field: its label above its value, aligned as `textAlignment` asks.
    func field(_ field: PreviewField, _ area: String) -> String {
        // Natural alignment is left to the style sheet (the last field of a row ends on the right, as in Wallet).
        let alignment = field.alignment == "start" ? "" : " style=\"text-align: \(field.alignment)\""
        return """
            <div class="field" data-key="\(HTMLText.escape(field.key))" data-area="\(area)"\(alignment)>\
            <div class="label">\(HTMLText.escape(field.label))</div><div class="value">\(HTMLText.escape(field.value))</div></div>
            """
    }

    /// A row of fields of one area (`header`, `primary`, `secondary`, `auxiliary`), nothing when empty.
    func row(_ fields: [PreviewField], _ area: String) -> String {
        fields.isEmpty ? "" : "<div class=\"fields \(area)\">" + fields.map { field($0, area) }.joined() + "</div>"
    }

    func image(_ name: String, alt: String = "") -> String {
        images.dataURI(name).map { "<img class=\"\(name)\" src=\"\($0)\" alt=\"\(HTMLText.escape(alt))\">" } ?? ""
    }

    /// The barcode the device shows, drawn by zint, with `altText` below (not on the Watch); on a voided pass a notice.
    func barcodeBlock(watch: Bool) -> String {
        if card.voided { return "<div class=\"state-notice\" data-state=\"voided\">\(HTMLText.escape(notice("voided")))</div>" }
        var html = ""
        if let barcode = PreviewLayout.barcode(card.barcodes, watch: watch, iOS27: options.iOS27Barcodes) {
            do {
                let symbol = try BarcodeSymbol(format: barcode.format, message: barcode.message, messageEncoding: barcode.messageEncoding)
                let kind = symbol.isRectangular ? "rectangular" : "square"
                html += "<figure class=\"barcode \(kind)\" data-format=\"\(barcode.format.rawValue)\">"
                html += symbol.svg(title: "\(barcode.format.rawValue) barcode")
                if !watch, let alt = barcode.altText, !alt.isEmpty { html += "<figcaption>\(HTMLText.escape(alt))</figcaption>" }
                html += "</figure>"
            } catch {
                html += "<div class=\"barcode-error\">\(HTMLText.escape(error.message))</div>"
            }
        } else if preview.passJSON["nfc"] != nil {
            let hold = PreviewWords.text("Hold near reader", language: deviceLanguage)
            html += "<div class=\"nfc\" title=\"NFC\">◉ \(HTMLText.escape(hold))</div>"
        }
        if card.expired { html += "<div class=\"state-notice\" data-state=\"expired\">\(HTMLText.escape(notice("expired")))</div>" }
        return html
    }

    func notice(_ state: String) -> String {
        PreviewWords.text(state == "voided" ? "This pass is void" : "This pass has expired", language: deviceLanguage)
    }

    /// Lint's findings, listed under the picture.
    func diagnosticsSection() -> String {
        guard !preview.diagnostics.isEmpty else {
            return "<section class=\"diagnostics\" id=\"diagnostics\"><h2>Lint</h2><p class=\"clean\">No problems found.</p></section>"
        }
        let items = preview.diagnostics.map { d in
            let place = d.path.isEmpty ? d.file : "\(d.file) \(d.path)"
            return """
                <li class="\(d.severity.rawValue)"><span class="severity">\(d.severity.rawValue)</span> \
                <code>\(HTMLText.escape(d.code))</code> <span class="place">\(HTMLText.escape(place))</span>: \
                \(HTMLText.escape(d.message)). <span class="fix">Fix: \(HTMLText.escape(d.fix))</span></li>
                """
        }
        return "<section class=\"diagnostics\" id=\"diagnostics\"><h2>Lint</h2><ul>\(items.joined())</ul></section>"
    }
}
