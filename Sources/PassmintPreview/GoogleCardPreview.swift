import Foundation
public import Passmint

/// The Google Wallet card a pass becomes, drawn beside the Apple one (`passmint preview --google`): its class and
/// object as Google Wallet's mapping makes them, laid out as Google Wallet shows a card — the logo and the card's
/// title on its background colour, the header, the style's own rows (points, balance, seat, flight), the barcode with
/// its alternate text, the hero image, then the text and link modules of the details. Images are named
/// `preview:<path>` by the mapping and inlined here from the pass's files, so the page still needs no network.
/// Numbers (points, balances, numeric fields) and dates (fields with a `dateStyle` or `timeStyle`) are written as a
/// person reads them in the preview's language, by the Apple preview's own ``PreviewFormatter``.
public struct GoogleCardPreview: Sendable {
    /// The scheme of the image addresses the mapping is given for a preview: `preview:logo@3x.png`.
    public static let imageScheme = "preview:"

    let classBody: JSONObject
    let objectBody: JSONObject
    let files: [String: [UInt8]]
    let passFiles: [PassContents.File]
    /// The Apple pass's fields by key, whose styles say how a text module's number or date reads.
    let passFields: [String: JSONObject]

    /// The card of `classBody` and `objectBody` (the mapping of `passJSON`, whose fields' `numberStyle`,
    /// `currencyCode`, `dateStyle` and `timeStyle` say how the modules' values read).
    public init(classBody: JSONObject, objectBody: JSONObject, files: [PassContents.File], passJSON: JSONObject = JSONObject()) {
        self.classBody = classBody
        self.objectBody = objectBody
        self.files = Dictionary(files.map { ($0.path, $0.bytes) }) { first, _ in first }
        passFiles = files
        var fields: [String: JSONObject] = [:]
        let style = Pass.Style.allCases.lazy.compactMap { passJSON[$0.rawValue]?.objectValue }.first ?? JSONObject()
        for member in style where member.key.hasSuffix("Fields") {
            for case .object(let field) in member.value.arrayValue ?? [] {
                if let key = field["key"]?.stringValue, fields[key] == nil { fields[key] = field }
            }
        }
        passFields = fields
    }

    /// `<section class="device google" id="google">…</section>`, for the preview page's row of devices; numbers and
    /// dates in the language and time zone of `options`, as the Apple devices beside it show them.
    public func section(_ options: PassPreview.Options = PassPreview.Options()) -> String {
        let strings = PreviewStrings(files: passFiles, requested: options.language)
        let formatter = PreviewFormatter(options: options, strings: strings)
        let background = PreviewColor(text(member("hexBackgroundColor")))?.css ?? "rgb(66, 133, 244)"
        var card = "<div class=\"gcard\" style=\"--gbg: \(background)\"><div class=\"gtop\">"
        if let logo = image(member("programLogo") ?? member("logo") ?? member("titleImage") ?? airlineLogo) {
            card += "<img class=\"glogo\" src=\"\(logo)\" alt=\"\">"
        }
        card += "<span class=\"gissuer\">\(escape(text(member("issuerName")) ?? ""))</span></div>"
        card += "<div class=\"gtitle\">\(escape(title))</div>"
        if let header = text(member("header") ?? member("accountName") ?? member("ticketHolderName") ?? member("passengerName")) {
            card += "<div class=\"gheader\">\(escape(header))</div>"
        }
        let rows = slotRows(formatter)
        if !rows.isEmpty {
            card += "<div class=\"grow\">" + rows.map { Self.cell($0.label, $0.value, key: $0.key) }.joined() + "</div>"
        }
        card += barcode()
        if let hero = image(member("heroImage")) { card += "<img class=\"ghero\" src=\"\(hero)\" alt=\"\">" }
        card += "</div>"
        card += details(formatter, strings: strings)
        return "<section class=\"device google\" id=\"google\"><h2>Google Wallet</h2><style>\(Self.css)</style>\(card)</section>"
    }

    /// A member of the object, else of the class.
    func member(_ key: String) -> JSONValue? { objectBody[key] ?? classBody[key] }

    var airlineLogo: JSONValue? { classBody["flightHeader"]?["carrier"]?["airlineLogo"] }

    /// The card's title as Google shows it for each style.
    var title: String {
        let candidates = ["programName", "eventName", "title", "cardTitle", "localIssuerName"]
        if let flight = classBody["flightHeader"], let carrier = flight["carrier"]?["carrierIataCode"]?.stringValue {
            return carrier + (flight["flightNumber"]?.stringValue ?? "")
        }
        return candidates.lazy.compactMap { text(member($0)) }.first ?? ""
    }

    /// The style's own slots, as label and value.
    func slotRows(_ formatter: PreviewFormatter) -> [(key: String, label: String, value: String)] {
        var rows: [(key: String, label: String, value: String)] = []
        for key in ["loyaltyPoints", "secondaryLoyaltyPoints"] {
            if let points = objectBody[key], let value = Self.balance(points["balance"], formatter) {
                rows.append((key, text(points["label"]) ?? "Points", value))
            }
        }
        if let balance = Self.money(objectBody["balance"], formatter) { rows.append(("balance", "Balance", balance)) }
        if let seat = objectBody["seatInfo"] {
            for part in ["section", "row", "seat", "gate"] {
                if let value = text(seat[part]) { rows.append((part, part.capitalized, value)) }
            }
        }
        if let origin = classBody["origin"]?["airportIataCode"]?.stringValue,
            let destination = classBody["destination"]?["airportIataCode"]?.stringValue
        {
            rows.append(("route", "Flight", "\(origin) → \(destination)"))
        }
        if let leg = objectBody["ticketLeg"] ?? classBody["ticketLeg"],
            let origin = text(leg["originName"]), let destination = text(leg["destinationName"])
        {
            rows.append(("route", "Trip", "\(origin) → \(destination)"))
        }
        return rows
    }

    /// The barcode as Google draws it (the formats both wallets share), with its alternate text.
    func barcode() -> String {
        guard let barcode = objectBody["barcode"], let value = barcode["value"]?.stringValue else { return "" }
        let formats: [String: Barcode.Format] = ["QR_CODE": .qr, "PDF_417": .pdf417, "AZTEC": .aztec, "CODE_128": .code128]
        guard let format = barcode["type"]?.stringValue.flatMap({ formats[$0] }),
            let symbol = try? BarcodeSymbol(format: format, message: value, messageEncoding: "utf-8")
        else { return "" }
        let alternate = barcode["alternateText"]?.stringValue.map { "<div class=\"galt\">\(escape($0))</div>" } ?? ""
        return "<div class=\"gbarcode\" id=\"google-barcode\">\(symbol.svg(title: "barcode"))\(alternate)</div>"
    }

    /// The text and link modules, and the thumbnail, as on the card's details.
    func details(_ formatter: PreviewFormatter, strings: PreviewStrings) -> String {
        var items: [String] = []
        if let image = image(objectBody["imageModulesData"]?.arrayValue?.first?["mainImage"]) {
            items.append("<img class=\"gmodule\" src=\"\(image)\" alt=\"\">")
        }
        let modules = (classBody["textModulesData"]?.arrayValue ?? []) + (objectBody["textModulesData"]?.arrayValue ?? [])
        for module in modules {
            let key = module["id"]?.stringValue ?? ""
            let body = formatted(passFields[key], formatter, strings: strings) ?? text(module["body"]) ?? ""
            items.append(Self.cell(text(module["header"]) ?? "", body, key: key))
        }
        for link in objectBody["linksModuleData"]?["uris"]?.arrayValue ?? [] {
            let uri = link["uri"]?.stringValue ?? ""
            items.append(Self.cell(link["description"]?.stringValue ?? "", uri, key: link["id"]?.stringValue ?? ""))
        }
        return items.isEmpty ? "" : "<div class=\"gdetails\">" + items.joined() + "</div>"
    }

    static func cell(_ label: String, _ value: String, key: String) -> String {
        "<div class=\"gcell\" data-key=\"\(HTMLText.escape(key))\" data-area=\"google\"><div class=\"label\">\(HTMLText.escape(label))</div>"
            + "<div class=\"value\">\(HTMLText.escape(value))</div></div>"
    }

    /// A Google `LocalizedString` (its default value) or a plain string.
    func text(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        if let string = value.stringValue { return string.isEmpty ? nil : string }
        return value["defaultValue"]?["value"]?.stringValue
    }

    /// An `Image`'s `data:` URL, when the mapping named a file of the pass.
    func image(_ value: JSONValue?) -> String? {
        guard let uri = value?["sourceUri"]?["uri"]?.stringValue, uri.hasPrefix(Self.imageScheme),
            let bytes = files[String(uri.dropFirst(Self.imageScheme.count))]
        else { return nil }
        return "data:image/png;base64," + Data(bytes).base64EncodedString()
    }

    /// The value of the pass's field a text module came from, when it is a number or a date: as the Apple preview
    /// writes it (nil for text, which the module shows as the mapping sent it).
    func formatted(_ field: JSONObject?, _ formatter: PreviewFormatter, strings: PreviewStrings) -> String? {
        guard let field else { return nil }
        let isDate = field["dateStyle"] != nil || field["timeStyle"] != nil
        guard field["value"]?.numberValue != nil || isDate else { return nil }
        return formatter.value(of: field, strings: strings)
    }

    /// A loyalty balance: `int`, `double`, `string` or `money`; numbers with their decimals, grouped as the locale
    /// groups them (`3.679,5` in German).
    static func balance(_ value: JSONValue?, _ formatter: PreviewFormatter) -> String? {
        guard let value else { return nil }
        if let number = (value["int"] ?? value["double"])?.numberValue {
            return formatter.format(number: number.doubleValue, field: ["numberStyle": "PKNumberStyleDecimal"])
        }
        return value["string"]?.stringValue ?? money(value["money"], formatter)
    }

    /// `Money` (`micros`, `currencyCode`) as the locale writes an amount (`42,50 €` in German).
    static func money(_ value: JSONValue?, _ formatter: PreviewFormatter) -> String? {
        guard let micros = value?["micros"]?.numberValue?.doubleValue ?? value?["micros"]?.stringValue.flatMap(Double.init) else {
            return nil
        }
        var field: JSONObject = [:]
        if let currency = value?["currencyCode"]?.stringValue { field["currencyCode"] = .string(currency) }
        return formatter.format(number: micros / 1_000_000, field: field)
    }

    func escape(_ text: String) -> String { HTMLText.escape(text) }

    static let css = """
        .gcard{width:340px;border-radius:24px;overflow:hidden;background:var(--gbg);color:#fff;font-family:Roboto,system-ui,sans-serif;
        box-shadow:0 1px 3px rgba(0,0,0,.3)}.gtop{display:flex;align-items:center;gap:10px;padding:16px 16px 0}
        .glogo{width:32px;height:32px;border-radius:50%;object-fit:cover;background:#fff}.gissuer{font-size:14px}
        .gtitle{font-size:22px;padding:12px 16px 0}.gheader{font-size:16px;padding:4px 16px 0;opacity:.9}
        .grow{display:flex;gap:24px;padding:16px}.gcell .label{font-size:11px;opacity:.8}.gcell .value{font-size:15px}
        .gbarcode{background:#fff;margin:8px auto 16px;padding:12px;border-radius:12px;width:220px;text-align:center;color:#202124}
        .gbarcode svg{width:100%;height:auto}.galt{font-size:12px;margin-top:4px}.ghero{display:block;width:100%}
        .gdetails{width:340px;margin-top:16px;display:flex;flex-direction:column;gap:12px}.gdetails .gcell .label{color:#5f6368;opacity:1}
        .gmodule{max-width:100%;border-radius:8px}
        """
}
