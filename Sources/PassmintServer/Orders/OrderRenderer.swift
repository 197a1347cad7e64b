import Foundation
import Passmint
import PassmintStore

/// Makes the signed `.order` of a stored order's version: its template filled with its data, the keys the service
/// owns written over it (`orderTypeIdentifier`, `orderIdentifier`, `authenticationToken`, `updatedAt` — the version's
/// date — and `webServiceURL`), checked by the order linter and signed with the Order Type ID identity.
struct OrderRenderer: Sendable {
    let templates: OrderTemplateCatalog
    let identities: SigningIdentities
    let webServiceURL: String
    /// The time a signature is checked against (the certificate's validity).
    let clock: @Sendable () -> Date

    /// The signed order of `order` (its template, data and version).
    func build(_ order: StoredPass) throws(ServiceFailure) -> BuiltOrder {
        try build(order, data: Self.data(order.dataJSON))
    }

    /// The signed order of `order`'s identity and version, with `data`.
    func build(_ order: StoredPass, data: JSONObject) throws(ServiceFailure) -> BuiltOrder {
        let template = try templates.template(named: order.template)
        let json = try orderJSON(order, data: data, template: template)
        do {
            let builder = OrderBuilder(identities: identities, options: .init(now: clock()))
            let source = OrderTemplateCatalog.storedName(order.template) + "/order.json"
            return try builder.build(orderJSON: json, files: template.files, source: source)
        } catch {
            throw .unprocessable(error.message)
        }
    }

    /// The `order.json` of `order`'s version with `data`, as it is signed.
    func orderJSON(_ order: StoredPass, data: JSONObject, template: OrderTemplate? = nil) throws(ServiceFailure) -> JSONObject {
        let chosen: OrderTemplate
        if let template { chosen = template } else { chosen = try templates.template(named: order.template) }
        var json = try render(chosen, order: order, data: data)
        json["orderTypeIdentifier"] = .string(order.passTypeIdentifier)
        return json
    }

    /// The order type a new order of `template` with `data` gets: the template's `orderTypeIdentifier` (after its
    /// placeholders), else the one Order Type ID identity of the certificates folder.
    func orderType(template name: String, data: JSONObject) throws(ServiceFailure) -> String {
        let template = try templates.template(named: name)
        let probe = StoredPass(
            passTypeIdentifier: "", serialNumber: "probe", authenticationToken: "probe-token-0123456789", template: name,
            dataJSON: "{}", updatedAt: clock())
        if let type = try render(template, order: probe, data: data)["orderTypeIdentifier"]?.stringValue, !type.isEmpty { return type }
        let orderTypes = identities.passTypeIdentifiers.filter { $0.hasPrefix("order.") }
        guard orderTypes.count == 1 else {
            throw .unprocessable(
                orderTypes.isEmpty
                    ? "the certificates folder holds no Order Type ID certificate (UID order.…): add one to issue orders"
                    : "the certificates folder holds several Order Type ID certificates (\(orderTypes.joined(separator: ", "))): "
                        + "give \"orderTypeIdentifier\" in the template or the data")
        }
        return orderTypes[0]
    }

    private func render(_ template: OrderTemplate, order: StoredPass, data: JSONObject) throws(ServiceFailure) -> JSONObject {
        var values = data
        let owned: JSONObject = [
            "orderIdentifier": .string(order.serialNumber), "authenticationToken": .string(order.authenticationToken),
            "updatedAt": .string(RFC3339Date.string(from: order.updatedAt)),
        ]
        for member in owned { values[member.key] = member.value }
        var json: JSONObject
        do {
            json = try template.render(data: values)
        } catch {
            throw .unprocessable(error.message.replacingOccurrences(of: templates.folder + "/", with: ""))
        }
        for member in owned { json[member.key] = member.value }
        json["webServiceURL"] = .string(webServiceURL)
        return json
    }

    /// A stored data text as an object (an empty one when it does not parse, which the store never holds).
    static func data(_ text: String) -> JSONObject { (try? JSONParser.value(Array(text.utf8)).objectValue) ?? JSONObject() }
}
