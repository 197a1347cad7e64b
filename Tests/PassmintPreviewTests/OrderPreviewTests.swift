import Foundation
import Passmint
import PassmintPreview
import PassmintTestSupport
import PassmintTestTraits
import Testing

@Suite(.computeThreads) struct OrderPreviewTests {
    static func template(_ name: String) throws -> OrderPreview {
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates")
        let data = try Data(contentsOf: root.appendingPathComponent("\(name).json"))
        return try OrderPreview(
            template: try OrderTemplate(folder: root.appendingPathComponent("\(name).order").path),
            data: try JSONParser.value(Array(data)).objectValue!)
    }

    @Test func aShipmentShowsItsProgressTrackingItemsAndPaymentTranslated() throws {
        let html = try Self.template("Shipment").html(language: "de", timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(html.contains("<h1>Northwind Audio</h1>") && html.contains("Order 004711"))
        #expect(
            html.contains("<li class=\"done\">Ordered</li><li class=\"current\">Shipped</li><li class=\"todo\">Out for delivery</li>"),
            "onTheWay is the shipped step")
        #expect(html.contains("<a href=\"https://tracking.example.com/00340434161234567890\">00340434161234567890</a>"))
        #expect(html.contains("Expected Tue 24 Nov, 09:00 (window PT4H)"))
        #expect(html.contains("<strong>Studiokopfhörer</strong>") && html.contains("<dt>Versand</dt><dd>EUR 4.90</dd>"), "German strings")
        #expect(html.contains("<dd class=\"total\">EUR 218.80</dd>") && html.contains("Paid with Visa •••• 4242"))
        #expect(html.contains("src=\"data:image/png;base64,"), "the logo and item images are inlined")
        #expect(!html.contains("<script"))
    }

    @Test func aPickupShowsWhereWhenAndTheCodeToShow() throws {
        let html = try Self.template("StorePickup").html(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(html.contains("<li class=\"done\">Preparing</li><li class=\"current\">Ready for pickup</li>"))
        #expect(html.contains("Oranienstraße 25, Berlin") && html.contains("Pick up from Thu 26 Nov, 10:00 (window PT8H)"))
        #expect(html.contains("<svg") && html.contains("RCS-88412-7Q"), "the pickup QR code and its text")
    }

    @Test func textFromTheOrderIsEscaped() throws {
        var json = try Self.template("StorePickup").orderJSON
        json["merchant"] = ["displayName": "<b>Rossa</b> & Co", "merchantIdentifier": "m", "url": "https://x.example"]
        json["fulfillments"] = [
            [
                "fulfillmentType": "shipping", "fulfillmentIdentifier": "S", "status": "issue", "trackingURL": "javascript:alert(1)",
                "trackingNumber": "1",
            ]
        ]
        let html = OrderPreview(orderJSON: json, files: [], source: "x").html()
        #expect(html.contains("&lt;b&gt;Rossa&lt;/b&gt; &amp; Co") && !html.contains("<b>Rossa"))
        #expect(!html.contains("javascript:"), "only https tracking links are linked")
        #expect(html.contains("There is a problem with this shipment"))
    }

    @Test func aBuiltOrderPackageIsPreviewed() throws {
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates")
        let data = try JSONParser.value(Array(try Data(contentsOf: root.appendingPathComponent("Shipment.json")))).objectValue!
        let identity = try TestTemplates.identity(uid: TestEnvironment.devOrderType)
        let order = try OrderBuilder(identity: identity).build(
            template: try OrderTemplate(folder: root.appendingPathComponent("Shipment.order").path), data: data)
        let html = try OrderPreview(order: order.archive, source: "shipment.order").html(language: "en")
        #expect(html.contains("<strong>Studio headphones</strong>"))
        #expect(throws: PassmintError.self) { try OrderPreview(order: Array("not a zip".utf8), source: "x.order") }
    }
}
