import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// One case of each order lint rule: a valid order changed in one place, and the finding it must give (code and
/// JSON path), with a message that names the value and a fix.
@Suite(.computeThreads) struct OrderLintTests {
    static let base = try! JSONParser.value(Array(OrderModelTests.orderJSON.utf8)).objectValue!

    /// A step of a JSON path: a key or an array index.
    enum Step: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case key(String)
        case index(Int)
        init(stringLiteral value: String) { self = .key(value) }
        init(integerLiteral value: Int) { self = .index(value) }
    }

    /// `root` (the base order unless given) with the value at `path` replaced; nil removes it.
    static func changed(_ path: [Step], to value: JSONValue?, in root: JSONObject = base) -> JSONObject {
        func replace(_ node: JSONValue?, _ rest: ArraySlice<Step>) -> JSONValue? {
            guard let head = rest.first else { return value }
            switch (head, node) {
            case (.index(let index), .array(var array)?):
                array[index] = replace(array[index], rest.dropFirst()) ?? .null
                return .array(array)
            case (.key(let key), .object(var object)?):
                object[key] = replace(object[key], rest.dropFirst())
                return .object(object)
            default:
                return node
            }
        }
        return replace(.object(root), path[...])!.objectValue!
    }

    static func findings(_ json: JSONObject) -> [Diagnostic] {
        OrderLinter.lint(json: json).filter { $0.code != "order-unknown-key" }
    }

    @Test func theBaseOrderIsValid() {
        #expect(Self.findings(Self.base).isEmpty, "\(Self.findings(Self.base))")
        #expect(OrderLinter.lint(json: Self.base).map(\.code) == ["order-unknown-key"], "futureTopKey is not Apple's")
    }

    struct Case: Sendable, CustomStringConvertible {
        var path: [Step]
        var value: JSONValue?
        var code: String
        var at: String
        var severity: Diagnostic.Severity = .error
        var description: String { "\(code) at \(at)" }
    }

    static let cases: [Case] = [
        Case(path: ["updatedAt"], value: nil, code: "order-required-key", at: "updatedAt"),
        Case(path: ["merchant", "url"], value: nil, code: "order-required-key", at: "merchant.url"),
        Case(
            path: ["fulfillments", 1, "fulfillmentIdentifier"], value: nil, code: "order-required-key",
            at: "fulfillments[1].fulfillmentIdentifier"),
        Case(path: ["schemaVersion"], value: "1", code: "order-type", at: "schemaVersion"),
        Case(path: ["lineItems", 0, "quantity"], value: "1", code: "order-type", at: "lineItems[0].quantity"),
        Case(path: ["status"], value: "shipped", code: "order-value", at: "status"),
        Case(path: ["orderType"], value: "subscription", code: "order-value", at: "orderType"),
        Case(path: ["fulfillments", 0, "status"], value: "readyForPickup", code: "order-value", at: "fulfillments[0].status"),
        Case(
            path: ["fulfillments", 1, "barcode", "format"], value: "PKBarcodeFormatQR", code: "order-value",
            at: "fulfillments[1].barcode.format"),
        Case(path: ["payment", "status"], value: "settled", code: "order-value", at: "payment.status", severity: .warning),
        Case(path: ["orderTypeIdentifier"], value: "pass.dev.passmint.example", code: "order-identifier", at: "orderTypeIdentifier"),
        Case(path: ["createdAt"], value: "2026-11-20T14:05Z", code: "order-date", at: "createdAt"),
        Case(path: ["createdAt"], value: "2026-11-23T00:00:00Z", code: "order-date", at: "updatedAt"),
        Case(
            path: ["fulfillments", 0, "estimatedDeliveryAt"], value: "1764149400", code: "order-date",
            at: "fulfillments[0].estimatedDeliveryAt"),
        Case(path: ["orderManagementURL"], value: "http://shop.example.com/orders/1", code: "order-url", at: "orderManagementURL"),
        Case(path: ["webServiceURL"], value: "https://shop.example.com/wallet/", code: "order-required-key", at: "authenticationToken"),
        Case(path: ["authenticationToken"], value: "short", code: "order-token", at: "authenticationToken"),
        Case(path: ["payment", "total", "currency"], value: "euro", code: "order-currency", at: "payment.total.currency"),
        Case(
            path: ["fulfillments", 1, "fulfillmentIdentifier"], value: "F1", code: "order-duplicate-identifier",
            at: "fulfillments[1].fulfillmentIdentifier"),
        Case(
            path: ["fulfillments", 1, "pickupWindowDuration"], value: "8 hours", code: "order-duration",
            at: "fulfillments[1].pickupWindowDuration"),
        Case(path: ["fulfillments", 1, "pickupAt"], value: nil, code: "order-required-key", at: "fulfillments[1].pickupAt"),
        Case(
            path: ["fulfillments", 0, "status"], value: "delivered", code: "order-delivered-at", at: "fulfillments[0].deliveredAt",
            severity: .warning),
        Case(path: ["payment"], value: nil, code: "order-required-key", at: "payment"),
        Case(path: ["futureTopKey"], value: 1, code: "order-unknown-key", at: "futureTopKey", severity: .warning),
    ]

    @Test(arguments: cases) func eachRuleFindsItsCase(_ test: Case) {
        let findings = OrderLinter.lint(json: Self.changed(test.path, to: test.value)).filter { $0.code == test.code && $0.path == test.at }
        #expect(findings.count == 1, "\(OrderLinter.lint(json: Self.changed(test.path, to: test.value)))")
        #expect(findings.first?.severity == test.severity)
        #expect(findings.first.map { !$0.fix.isEmpty && !$0.message.isEmpty } == true)
        if let value = test.value?.stringValue, test.code == "order-value" || test.code == "order-date" || test.code == "order-url" {
            #expect(findings.first?.message.contains(value) == true, "the message shows the value: \(findings.first?.message ?? "")")
        }
    }

    @Test func schemaVersion2MayLeaveOutPayment() {
        var json = Self.changed(["payment"], to: nil)
        json["schemaVersion"] = 2
        #expect(Self.findings(json).isEmpty, "\(Self.findings(json))")
    }

    @Test func imagesAreFoundAtEveryScaleCheckedAsPNGAndSquare() {
        let square = TestTemplates.png(width: 120, height: 120)
        #expect(
            OrderLinter.lint(json: Self.base, files: [.init(path: "item@3x.png", bytes: square)]).allSatisfy {
                $0.code == "order-unknown-key"
            })
        let missing = OrderLinter.lint(json: Self.base, files: [])
        #expect(missing.contains { $0.code == "order-image-missing" && $0.path == "lineItems[0].image" && $0.message.contains("\"item\"") })
        let notPNG = OrderLinter.lint(json: Self.base, files: [.init(path: "item.png", bytes: Array("GIF89a".utf8))])
        #expect(notPNG.contains { $0.code == "order-image-format" && $0.file == "item.png" })
        let wide = OrderLinter.lint(json: Self.base, files: [.init(path: "item@3x.png", bytes: TestTemplates.png(width: 160, height: 120))])
        #expect(wide.contains { $0.code == "order-image-size" && $0.file == "item@3x.png" && $0.message.contains("160×120") })
        let small = OrderLinter.lint(json: Self.base, files: [.init(path: "item.png", bytes: TestTemplates.png(width: 40, height: 40))])
        #expect(small.contains { $0.code == "order-image-size" && $0.severity == .warning && $0.path == "lineItems[0].image" })
        let localized = OrderLinter.lint(
            json: Self.base, files: [.init(path: "item@3x.png", bytes: square), .init(path: "fr.lproj/pass.strings", bytes: [])])
        #expect(localized.contains { $0.code == "order-strings-name" && $0.fix.contains("fr.lproj/order.strings") })
    }

    @Test func statusesThatCannotHappenAfterThePreviousVersion() {
        var completed = Self.changed(["status"], to: "completed")
        completed["updatedAt"] = "2026-11-21T00:00:00Z"
        var reopened = Self.base
        reopened["updatedAt"] = "2026-11-23T00:00:00Z"
        let back = OrderLinter.lint(json: reopened, previous: completed)
        #expect(back.map(\.code) == ["order-status-transition"], "\(back)")
        #expect(back.first?.path == "status" && back.first?.message.contains("completed back to open") == true)

        var delivered = Self.changed(["fulfillments", 0, "status"], to: "delivered")
        delivered["updatedAt"] = "2026-11-21T00:00:00Z"
        let undelivered = OrderLinter.lint(json: reopened, previous: delivered)
        #expect(undelivered.map(\.path) == ["fulfillments[0].status"])

        var pickedUp = Self.changed(["fulfillments", 1, "status"], to: "pickedUp")
        pickedUp["updatedAt"] = "2026-11-21T00:00:00Z"
        #expect(OrderLinter.lint(json: reopened, previous: pickedUp).map(\.path) == ["fulfillments[1].status"])

        var forward = Self.changed(["fulfillments", 0, "status"], to: "delivered")
        forward["updatedAt"] = "2026-11-23T00:00:00Z"
        #expect(OrderLinter.lint(json: forward, previous: Self.base).isEmpty, "open → delivered is a change that can happen")
    }

    @Test func updatedAtMustGrowAndIdentifiersStay() {
        let same = OrderLinter.lint(json: Self.base, previous: Self.base)
        #expect(same.map(\.code) == ["order-updated-at"] && same[0].message.contains("not later"), "\(same)")
        var earlier = Self.base
        earlier["updatedAt"] = "2026-11-22T07:00:00Z"
        #expect(OrderLinter.lint(json: earlier, previous: Self.base).map(\.code) == ["order-updated-at"])
        var missing = Self.base
        missing["updatedAt"] = nil
        #expect(OrderLinter.lint(json: missing, previous: Self.base).map(\.code) == ["order-required-key"])
        var renamed = Self.base
        renamed["updatedAt"] = "2026-11-23T00:00:00Z"
        renamed["orderIdentifier"] = "NW-2"
        renamed["createdAt"] = "2026-11-21T00:00:00Z"
        #expect(OrderLinter.lint(json: renamed, previous: Self.base).map(\.code) == ["order-identity-changed", "order-created-at-changed"])
    }

    @Test func syntaxErrorsAreOneFindingWithTheirPlace() {
        let findings = OrderLinter.lint(orderJSON: Array("{\n  \"status\": open\n}".utf8))
        #expect(findings.count == 1 && findings[0].code == "order-json" && findings[0].message.contains("line 2"), "\(findings)")
    }
}
