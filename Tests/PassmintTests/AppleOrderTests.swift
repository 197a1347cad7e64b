import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Orders written the way Apple writes them (`Tests/Fixtures/apple-style-orders`, from Apple's documented examples):
/// the order linter accepts them as the pass linter accepts Apple's sample passes, and `create` builds them.
@Suite(.computeThreads) struct AppleOrderTests {
    static let folders = ["Bakery.order", "Shipping.order"]

    static func template(_ name: String) throws -> OrderTemplate {
        try OrderTemplate(folder: TestEnvironment.fixtures.appendingPathComponent("apple-style-orders/\(name)").path)
    }

    @Test(arguments: folders) func lintFindsNoErrorInAnAppleStyleOrder(_ name: String) throws {
        let findings = OrderLinter.lint(template: try Self.template(name))
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings)")
        #expect(findings.isEmpty, "nothing to warn about in what Apple documents: \(findings)")
    }

    @Test(arguments: folders) func anAppleStyleOrderIsBuiltVerifiedAndReadByTheModel(_ name: String) throws {
        let template = try Self.template(name)
        let type = try #require(template.orderJSON["orderTypeIdentifier"]?.stringValue)
        let order = try OrderBuilder(identity: try TestTemplates.identity(uid: type)).build(template: template, data: [:])
        #expect(order.warnings.isEmpty, "\(order.warnings)")
        let root = try Certificate(contentsOf: TestEnvironment.devChain(uid: type).appendingPathComponent("root.pem").path)
        let report = OrderVerifier(root: root, team: "DEVTEAM123").verify(order.archive, source: name)
        #expect(report.isValid, "\(report.checks.filter { $0.status != .passed })")
        let entries = try ZipArchive.read(order.archive, source: name).map(\.name)
        if name == "Bakery.order" {
            #expect(entries.contains("en.lproj/logo.png") && entries.contains("de.lproj/logo.png"))
        }

        let model = try Order(data: order.orderJSON)
        let written = try model.jsonObject()
        #expect(
            JSONWriter.string(.object(written)) == JSONWriter.string(.object(try template.render(data: [:]))), "read and written back as is"
        )
    }

    @Test func paymentMethodsAreStringsAsAppleWritesThem() throws {
        let bakery = try Self.template("Bakery.order").render(data: [:])
        let model = try Order(json: bakery)
        #expect(model.payment?.paymentMethods == [.init(displayName: "Visa 5678", isString: true)])
        #expect(try model.jsonObject()["payment"]?["paymentMethods"] == ["Visa 5678"])

        func findings(_ methods: JSONValue) -> [Diagnostic] {
            let json = OrderLintTests.changed(["payment", "paymentMethods"], to: methods, in: bakery)
            return OrderLinter.lint(json: json).filter { $0.path.hasPrefix("payment.paymentMethods") }
        }
        #expect(findings(["Mastercard 1234", "Gift card"]).isEmpty)
        let object = findings([["displayName": "Visa 5678"]])
        #expect(object.map(\.code) == ["order-payment-method"] && object[0].severity == .warning, "\(object)")
        #expect(object.first?.fix.contains("\"Visa 5678\"") == true, "\(object)")
        let number = findings([5678])
        #expect(number.map(\.code) == ["order-type"] && number[0].severity == .error && number[0].path == "payment.paymentMethods[0]")
        #expect(number.first?.message.contains("5678") == true, "\(number)")
        let notAnArray = findings("Visa 5678")
        #expect(notAnArray.map(\.code) == ["order-type"] && notAnArray[0].path == "payment.paymentMethods", "\(notAnArray)")
    }

    @Test func aTransactionsPaymentMethodIsAnObjectWithADisplayName() throws {
        let shipping = try Self.template("Shipping.order").render(data: [:])
        #expect(OrderLinter.lint(json: shipping).isEmpty)
        let json = OrderLintTests.changed(
            ["payment", "transactions"],
            to: [["amount": ["amount": 1, "currency": "USD"], "transactionType": "purchase", "paymentMethod": ["name": "Visa"]]],
            in: shipping)
        let findings = OrderLinter.lint(json: json)
        #expect(
            findings.map(\.path) == ["payment.transactions[0].paymentMethod.displayName"] && findings[0].severity == .error,
            "\(findings)")
    }

    static let durations: [String] = [
        "P0Y0M0DT0H30M0S", "PT30M", "PT8H", "P1D", "P1DT4H", "P2W", "P1Y2M3W4DT5H6M7S", "PT0S", "P0D", "PT1.5H", "PT0,5S", "P1DT0.25S",
    ]
    static let notDurations: [String] = [
        "", "P", "PT", "P1DT", "T1H", "1H", "PT1D", "P1H", "P1S", "pt30m", "P-1D", "-P1D", "P1.5DT2H", "PT1.5H30M", "PT30M1H", "P1D1D",
        "P1DT1H1H", "PTT1H", "P1", "PT.5S", "PT1.S", "P 1D", "8 hours", "P1DT4H ",
    ]

    /// The bakery order with its pickup window written as `text`.
    static func bakery(pickupWindowDuration text: String) -> JSONObject {
        OrderLintTests.changed(
            ["fulfillments", 0, "pickupWindowDuration"], to: .string(text), in: try! template("Bakery.order").render(data: [:]))
    }

    @Test(arguments: durations) func isAnISO8601Duration(_ text: String) {
        #expect(ISO8601Duration.isValid(text))
        let json = Self.bakery(pickupWindowDuration: text)
        #expect(!OrderLinter.lint(json: json).contains { $0.code == "order-duration" })
    }

    @Test(arguments: notDurations) func isNotAnISO8601Duration(_ text: String) {
        #expect(!ISO8601Duration.isValid(text))
        let json = Self.bakery(pickupWindowDuration: text)
        let found = OrderLinter.lint(json: json).filter { $0.code == "order-duration" }
        #expect(found.map(\.path) == ["fulfillments[0].pickupWindowDuration"] && found[0].severity == .error, "\(found)")
        #expect(found.first?.message.contains("\"\(text)\"") == true)
    }

    @Test func aNumberADoubleCannotHoldIsRefusedByLintAndCreate() throws {
        let text = OrderModelTests.orderJSON.replacingOccurrences(of: "218.80", with: "1e99999999")
        let findings = OrderLinter.lint(orderJSON: Array(text.utf8))
        let found = findings.filter { $0.code == "number-out-of-range" }
        #expect(found.map(\.path) == ["payment.total.amount"] && found[0].severity == .error, "\(findings)")
        #expect(found.first?.message.contains("1e99999999") == true && found.first?.file == "order.json")
        let json = try #require(try JSONParser.value(Array(text.utf8)).objectValue)
        let builder = OrderBuilder(identity: try OrderBuilderTests.orderIdentity())
        do {
            _ = try builder.build(orderJSON: json, files: [OrderVerifierTests.item], source: "huge/order.json")
            Issue.record("an order with 1e99999999 was signed")
        } catch {
            #expect(error.message.contains("payment.total.amount") && error.message.contains("number-out-of-range"), "\(error.message)")
        }
        let tiny = try #require(JSONParser.value(Array("-1e400".utf8)).numberValue)
        let negative = OrderLintTests.changed(["lineItems", 0, "quantity"], to: .number(tiny), in: json)
        #expect(OrderLinter.lint(json: negative).contains { $0.code == "number-out-of-range" && $0.path == "lineItems[0].quantity" })
    }
}
