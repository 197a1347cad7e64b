import Foundation
import Passmint

/// The HTML of one ``OrderPreview``: every text escaped with ``HTMLText``, images inlined, no script.
struct OrderPreviewPage {
    let preview: OrderPreview
    let strings: [String: String]
    let timeZone: TimeZone

    init(preview: OrderPreview, language: String?, timeZone: TimeZone) {
        self.preview = preview
        self.strings = preview.strings(language: language)
        self.timeZone = timeZone
    }

    var json: JSONObject { preview.orderJSON }

    /// A string of `order.json`, translated when it is a key of the strings, escaped.
    func text(_ value: JSONValue?) -> String {
        guard let string = value?.stringValue else { return "" }
        return HTMLText.escape(strings[string] ?? string)
    }

    func document() -> String {
        let merchant = json["merchant"]
        var body = "<header>"
        if let logo = preview.imageURL(merchant?["logo"]?.stringValue) { body += "<img class=\"logo\" alt=\"\" src=\"\(logo)\">" }
        body += "<div><h1>\(text(merchant?["displayName"]))</h1>"
        if let number = json["orderNumber"] { body += "<p class=\"number\">Order \(text(number))</p>" }
        body += "</div><span class=\"status status-\(HTMLText.escape(json["status"]?.stringValue ?? ""))\">\(statusWord)</span></header>"
        if let description = json["statusDescription"] { body += "<p class=\"description\">\(text(description))</p>" }
        for fulfillment in json["fulfillments"]?.arrayValue ?? [] { body += OrderPreviewFulfillment(page: self, json: fulfillment).html() }
        body += lineItems(json["lineItems"]?.arrayValue ?? [])
        body += payment()
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(text(merchant?["displayName"])) order \(text(json["orderNumber"]))</title>
            <style>\(Self.styleSheet)</style></head>
            <body><main class="order">\(body)</main></body></html>

            """
    }

    var statusWord: String {
        switch json["status"]?.stringValue {
        case "open": "Active"
        case "completed": "Completed"
        case "cancelled": "Cancelled"
        default: HTMLText.escape(json["status"]?.stringValue ?? "")
        }
    }

    func lineItems(_ items: [JSONValue]) -> String {
        guard !items.isEmpty else { return "" }
        var html = "<section class=\"items\"><h2>Items</h2><ul>"
        for item in items {
            html += "<li>"
            if let image = preview.imageURL(item["image"]?.stringValue) { html += "<img alt=\"\" src=\"\(image)\">" }
            html += "<div><strong>\(text(item["title"]))</strong>"
            if item["subtitle"] != nil { html += "<span>\(text(item["subtitle"]))</span>" }
            html += "</div><span class=\"quantity\">× \(HTMLText.escape(item["quantity"]?.numberValue?.description ?? "1"))</span>"
            html += "<span class=\"price\">\(amount(item["price"]))</span></li>"
        }
        return html + "</ul></section>"
    }

    func payment() -> String {
        guard let payment = json["payment"] else { return "" }
        var html = "<section class=\"payment\"><h2>Payment</h2><dl>"
        for item in payment["summaryItems"]?.arrayValue ?? [] { html += "<dt>\(text(item["label"]))</dt><dd>\(amount(item["value"]))</dd>" }
        html += "<dt class=\"total\">Total</dt><dd class=\"total\">\(amount(payment["total"]))</dd></dl>"
        // Strings as Apple's schema writes them; objects with a displayName as Passmint wrote them before.
        let methods = (payment["paymentMethods"]?.arrayValue ?? []).map { text($0.stringValue != nil ? $0 : $0["displayName"]) }
            .filter { !$0.isEmpty }
        if !methods.isEmpty { html += "<p class=\"methods\">Paid with \(methods.joined(separator: ", "))</p>" }
        return html + "</section>"
    }

    /// A `CurrencyAmount` as `EUR 218.80` (two decimals; the currency code as written).
    func amount(_ value: JSONValue?) -> String {
        guard let number = value?["amount"]?.numberValue?.doubleValue, number.isFinite else { return "" }
        return HTMLText.escape("\(value?["currency"]?.stringValue ?? "") \(String(format: "%.2f", number))")
    }

    /// An RFC 3339 date as `Tue 24 Nov, 09:00` in the page's time zone; the text as written when it is not one.
    func date(_ value: JSONValue?) -> String {
        guard let string = value?.stringValue else { return "" }
        guard let date = RFC3339Date.parse(string) else { return HTMLText.escape(string) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE d MMM, HH:mm"
        return HTMLText.escape(formatter.string(from: date))
    }

    static let styleSheet = """
        body{margin:0;background:#f2f2f7;font:15px -apple-system,system-ui,sans-serif;color:#1c1c1e}\
        .order{max-width:420px;margin:24px auto;background:#fff;border-radius:16px;padding:20px}\
        header{display:flex;align-items:center;gap:12px}header h1{font-size:19px;margin:0}.number{margin:2px 0 0;color:#6e6e73}\
        .logo{width:48px;height:48px;border-radius:10px}.status{margin-left:auto;font-size:13px;padding:3px 10px;border-radius:10px;background:#e5e5ea}\
        .status-completed{background:#d1f2d9}.status-cancelled{background:#f8d7da}h2{font-size:15px;margin:20px 0 8px}\
        .steps{display:flex;list-style:none;padding:0;margin:8px 0;gap:4px}.steps li{flex:1;border-top:4px solid #e5e5ea;padding-top:4px;font-size:11px;color:#6e6e73}\
        .steps li.done{border-color:#34c759;color:#1c1c1e}.steps li.current{border-color:#34c759;font-weight:600;color:#1c1c1e}\
        .items ul{list-style:none;padding:0;margin:0}.items li{display:flex;align-items:center;gap:10px;padding:6px 0}\
        .items img{width:40px;height:40px;border-radius:8px}.items li div{flex:1;display:flex;flex-direction:column}\
        .items span{color:#6e6e73;font-size:13px}dl{display:grid;grid-template-columns:1fr auto;margin:0;gap:4px}dd{margin:0}\
        .total{font-weight:600}.methods,.fulfillment p{color:#6e6e73;font-size:13px;margin:4px 0}.code svg{width:140px;height:140px}
        """
}
