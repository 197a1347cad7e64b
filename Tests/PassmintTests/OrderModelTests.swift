import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct OrderModelTests {
    static let orderJSON = """
        {
          "updatedAt": "2026-11-22T08:30:00+01:00",
          "schemaVersion": 1,
          "orderTypeIdentifier": "order.dev.passmint.example",
          "orderIdentifier": "NW-1",
          "orderType": "ecommerce",
          "orderManagementURL": "https://shop.example.com/orders/1",
          "createdAt": "2026-11-20T14:05:00Z",
          "status": "open",
          "merchant": {"displayName": "Northwind", "merchantIdentifier": "merchant.com.example", "url": "https://shop.example.com",
                       "futureMerchantKey": [1, 2]},
          "payment": {"total": {"amount": 218.80, "currency": "EUR"}, "status": "paid",
                      "summaryItems": [{"label": "Shipping", "value": {"amount": 4.90, "currency": "EUR"}}],
                      "paymentMethods": ["Visa •••• 4242"]},
          "lineItems": [{"title": "Headphones", "quantity": 1, "image": "item", "price": {"amount": 189.00, "currency": "EUR"}}],
          "fulfillments": [
            {"fulfillmentType": "shipping", "fulfillmentIdentifier": "F1", "status": "onTheWay", "carrier": "DHL",
             "trackingNumber": "0034", "estimatedDeliveryAt": "2026-11-24T09:00:00+01:00", "estimatedDeliveryWindowDuration": "PT4H",
             "recipient": {"displayName": "Zoë", "address": {"addressLines": ["Lindenstraße 12"], "countryCode": "DE"}}},
            {"fulfillmentType": "pickup", "fulfillmentIdentifier": "F2", "status": "readyForPickup", "pickupAt": "2026-11-26T10:00:00Z",
             "pickupWindowDuration": "PT8H", "barcode": {"format": "qr", "message": "RCS-7Q"}, "location": {"latitude": 52.5, "longitude": 13.4}}
          ],
          "returns": [{"returnIdentifier": "R1", "status": "open"}],
          "customer": {"givenName": "Zoë"},
          "associatedApplications": [{"storeIdentifier": 123456789}],
          "orderProvider": {"displayName": "Shop platform"},
          "futureTopKey": {"kept": true}
        }
        """

    @Test func readsEveryPartWithItsType() throws {
        let order = try Order(data: Array(Self.orderJSON.utf8))
        #expect(order.status == .open)
        #expect(order.updatedDate == RFC3339Date.parse("2026-11-22T07:30:00Z"))
        #expect(order.payment?.total == Order.CurrencyAmount(amount: 218.8, currency: "EUR"))
        #expect(order.payment?.summaryItems?.first?.value.amount == 4.9)
        #expect(order.payment?.paymentMethods?.first?.displayName == "Visa •••• 4242")
        guard case .shipping(let shipping) = order.fulfillments?[0], case .pickup(let pickup) = order.fulfillments?[1] else {
            Issue.record("the fulfillments are a shipping and a pickup")
            return
        }
        #expect(shipping.status == .onTheWay && shipping.carrier == "DHL" && shipping.estimatedDeliveryWindowDuration == "PT4H")
        #expect(shipping.recipient?.address?.addressLines == ["Lindenstraße 12"])
        #expect(pickup.status == .readyForPickup && pickup.barcode?.format == .qr && pickup.location?.latitude == 52.5)
        #expect(order.returns?.first?.returnIdentifier == "R1")
        #expect(order.associatedApplications?.first?.storeIdentifier == 123_456_789)
        #expect(order.orderProvider?.displayName == "Shop platform")
        #expect(order.additionalProperties["futureTopKey"] == ["kept": true])
    }

    @Test func writesWhatItReadInTheSameOrderWithUnknownKeysAndLiterals() throws {
        let source = try JSONParser.value(Array(Self.orderJSON.utf8))
        let written = try Order(data: Array(Self.orderJSON.utf8)).jsonObject()
        #expect(JSONWriter.string(.object(written)) == JSONWriter.string(source), "member order, 218.80 and nested unknown keys kept")
        #expect(written["merchant"]?["futureMerchantKey"] == [1, 2])
    }

    @Test func aChangeMadeInCodeIsWrittenAndAnEmptiedKeyIsNotResurrected() throws {
        var order = try Order(data: Array(Self.orderJSON.utf8))
        order.status = .completed
        order.updatedAt = "2026-11-24T10:00:00Z"
        guard case .shipping(var shipping) = order.fulfillments?[0] else { return }
        shipping.status = .delivered
        shipping.trackingNumber = nil
        order.fulfillments?[0] = .shipping(shipping)
        let written = try order.jsonObject()
        #expect(written["status"] == "completed")
        #expect(written["fulfillments"]?.arrayValue?[0]["status"] == "delivered")
        #expect(
            written["fulfillments"]?.arrayValue?[0]["trackingNumber"] == nil, "a key the model knows and the code removed stays removed")
        #expect(written.keys.first == "updatedAt", "the source's member order")
    }

    @Test func anOrderMadeInCodeHasSortedKeysAndReadsBack() throws {
        var order = Order(
            orderTypeIdentifier: "order.dev.passmint.example", orderIdentifier: "A1", orderManagementURL: "https://example.com/o/A1",
            createdAt: "2026-11-26T09:00:00Z", updatedAt: "2026-11-26T09:00:00Z", status: .open,
            merchant: .init(merchantIdentifier: "merchant.com.example", displayName: "Example", url: "https://example.com"))
        order.payment = .init(total: .init(amount: 19.99, currency: "EUR"), status: .paid)
        order.fulfillments = [.pickup(.init(fulfillmentIdentifier: "P1", status: .open))]
        let bytes = try order.data()
        let json = try JSONParser.value(bytes).objectValue!
        #expect(json.keys == json.keys.sorted())
        #expect(json["payment"]?["total"]?["amount"] == .number(JSONNumber(19.99)))
        #expect(json["fulfillments"]?.arrayValue?[0]["fulfillmentType"] == "pickup")
        #expect(try Order(data: bytes) == order)
    }

    @Test func errorsNameTheKeyPath() {
        var json = try! JSONParser.value(Array(Self.orderJSON.utf8)).objectValue!
        json["fulfillments"] = [["fulfillmentType": "drone", "fulfillmentIdentifier": "F", "status": "open"]]
        #expect(throws: PassmintError.self) { try Order(json: json) }
        do {
            _ = try Order(json: json)
        } catch {
            #expect(error.code == .invalidOrder)
            #expect(error.message.contains("fulfillments[0].fulfillmentType") && error.message.contains("drone"), "\(error.message)")
        }
        json["fulfillments"] = nil
        json["merchant"] = ["displayName": "X", "url": "https://x.example"]
        do {
            _ = try Order(json: json)
            Issue.record("a merchant without merchantIdentifier is refused")
        } catch {
            #expect(error.message.contains("merchant.merchantIdentifier is missing"), "\(error.message)")
        }
    }

    @Test func rfc3339NeedsSecondsAndAZone() {
        #expect(RFC3339Date.parse("2026-11-26T09:30:00Z") != nil)
        #expect(RFC3339Date.parse("2026-11-26T10:30:00.250+01:00") == RFC3339Date.parse("2026-11-26T09:30:00.250Z"))
        #expect(RFC3339Date.parse("2026-11-26T09:30Z") == nil, "seconds are required")
        #expect(RFC3339Date.parse("2026-11-26T09:30:00") == nil, "a zone is required")
        #expect(RFC3339Date.parse("1764149400") == nil, "not a number of seconds")
        #expect(RFC3339Date.string(from: RFC3339Date.parse("2026-11-26T10:30:00+01:00")!) == "2026-11-26T09:30:00Z")
    }
}
