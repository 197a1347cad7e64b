import Passmint

/// One fulfillment of an order preview: its steps with the current one marked, and what Wallet shows beside them.
struct OrderPreviewFulfillment {
    let page: OrderPreviewPage
    let json: JSONValue

    /// The steps Wallet's progress bar shows, and the statuses that put the fulfillment at each.
    static let shippingSteps: [(String, Set<String>)] = [
        ("Ordered", ["open", "processing"]), ("Shipped", ["onTheWay", "shipped"]), ("Out for delivery", ["outForDelivery"]),
        ("Delivered", ["delivered"]),
    ]
    static let pickupSteps: [(String, Set<String>)] = [
        ("Ordered", ["open"]), ("Preparing", ["processing"]), ("Ready for pickup", ["readyForPickup"]), ("Picked up", ["pickedUp"]),
    ]

    func html() -> String {
        let isPickup = json["fulfillmentType"]?.stringValue == "pickup"
        let status = json["status"]?.stringValue ?? ""
        var html = "<section class=\"fulfillment\"><h2>\(isPickup ? "Pickup" : "Shipment")</h2>"
        if status == "cancelled" || status == "issue" {
            html +=
                "<p class=\"problem\">\(status == "cancelled" ? "Cancelled" : "There is a problem with this \(isPickup ? "pickup" : "shipment")")</p>"
        } else {
            html += steps(isPickup ? Self.pickupSteps : Self.shippingSteps, status: status)
        }
        if json["statusDescription"] != nil { html += "<p>\(page.text(json["statusDescription"]))</p>" }
        html += isPickup ? pickup() : shipping()
        return html + "</section>"
    }

    func steps(_ steps: [(String, Set<String>)], status: String) -> String {
        let current = steps.firstIndex { $0.1.contains(status) } ?? 0
        let items = steps.enumerated().map { index, step in
            "<li class=\"\(index < current ? "done" : index == current ? "current" : "todo")\">\(step.0)</li>"
        }
        return "<ol class=\"steps\">\(items.joined())</ol>"
    }

    func shipping() -> String {
        var html = ""
        if json["carrier"] != nil || json["trackingNumber"] != nil {
            let tracking = page.text(json["trackingNumber"])
            let link = json["trackingURL"]?.stringValue.flatMap { $0.hasPrefix("https://") ? HTMLText.escape($0) : nil }
            html += "<p>\(page.text(json["carrier"])) \(link.map { "<a href=\"\($0)\">\(tracking)</a>" } ?? tracking)</p>"
        }
        if json["deliveredAt"] != nil {
            html += "<p>Delivered \(page.date(json["deliveredAt"]))</p>"
        } else if json["estimatedDeliveryAt"] != nil {
            let window = json["estimatedDeliveryWindowDuration"].map { " (window \(page.text($0)))" } ?? ""
            html += "<p>Expected \(page.date(json["estimatedDeliveryAt"]))\(window)</p>"
        }
        return html
    }

    func pickup() -> String {
        var html = ""
        if json["displayName"] != nil { html += "<p><strong>\(page.text(json["displayName"]))</strong></p>" }
        let lines = (json["address"]?["addressLines"]?.arrayValue ?? []).map { page.text($0) } + [page.text(json["address"]?["locality"])]
        if !lines.allSatisfy(\.isEmpty) { html += "<p>\(lines.filter { !$0.isEmpty }.joined(separator: ", "))</p>" }
        if json["pickedUpAt"] != nil {
            html += "<p>Picked up \(page.date(json["pickedUpAt"]))</p>"
        } else if json["pickupAt"] != nil {
            let window = json["pickupWindowDuration"].map { " (window \(page.text($0)))" } ?? ""
            html += "<p>Pick up from \(page.date(json["pickupAt"]))\(window)</p>"
        }
        if json["instructions"] != nil { html += "<p>\(page.text(json["instructions"]))</p>" }
        if let barcode = json["barcode"], let message = barcode["message"]?.stringValue,
            let format = Self.formats[barcode["format"]?.stringValue ?? ""],
            let symbol = try? BarcodeSymbol(
                format: format, message: message, messageEncoding: barcode["messageEncoding"]?.stringValue ?? "iso-8859-1")
        {
            html +=
                "<div class=\"code\">\(symbol.svg(title: "Pickup code"))<p>\(page.text(barcode["altText"] ?? barcode["message"]))</p></div>"
        }
        return html
    }

    /// Order barcode formats as the pass barcode formats ``BarcodeSymbol`` draws.
    static let formats: [String: Barcode.Format] = ["qr": .qr, "aztec": .aztec, "pdf417": .pdf417, "code128": .code128]
}
