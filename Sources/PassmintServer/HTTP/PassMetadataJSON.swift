import Foundation
import Passmint
import PassmintStore

/// ``PassMetadata`` as the issuing API writes it, for a pass or an order.
enum PassMetadataJSON {
    /// `passTypeIdentifier`, `serialNumber`, `authenticationToken`, `template`, `updateTag` (a string), `lastModified`,
    /// `voided`, `url`, `data`, `personalization`, `registrations`; for an update `changed` and `push`
    /// (`{"queued": n}`: the devices it owes a push, delivered in the background); for a lookup `pushes`
    /// (`{"pending", "delivered", "failed", "devices": [{"device", "pending", "last"}]}`) and, when the service issues
    /// for Google Wallet and a link to the pass was made, `google` (`{"objectId", "pending", "attempts", "due"}`: the
    /// patch its object is owed); `links` (`download`, `add`) when the service has a link secret; for an erased pass
    /// `erasedAt` (ISO 8601) and no links (they answer 410).
    ///
    /// An order's: `orderTypeIdentifier` and `orderIdentifier` in place of the pass's type and serial, its template's
    /// name without `.order`, `updatedAt` (RFC 3339) in place of `voided` and `personalization`, its `url` under
    /// `/v1/orders`.
    static func object(_ metadata: PassMetadata, publicURL: String, links: PassLinks.Links? = nil) -> JSONObject {
        let pass = metadata.pass
        let kind = WalletWebService.Kind(typeIdentifier: pass.passTypeIdentifier)
        func parsed(_ text: String?) -> JSONValue { text.flatMap { try? JSONParser.value(Array($0.utf8)) } ?? .null }
        var object: JSONObject = [
            kind.typeIdentifierName: .string(pass.passTypeIdentifier), kind.identifierName: .string(pass.serialNumber),
            "authenticationToken": .string(pass.authenticationToken),
            "updateTag": .string(String(pass.updateTag)), "lastModified": .string(HTTPDate.string(pass.updatedAt)),
            "url": .string(publicURL + "/v1/\(kind == .order ? "orders" : "passes")/\(pass.passTypeIdentifier)/\(pass.serialNumber)"),
        ]
        switch kind {
        case .pass:
            object["template"] = .string(pass.template)
            object["voided"] = .bool(pass.voided)
            object["personalization"] = parsed(pass.personalizationJSON)
        case .order:
            object["template"] = .string(TemplateCatalog.orderName(pass.template))
            object["updatedAt"] = .string(RFC3339Date.string(from: pass.updatedAt))
        }
        object["data"] = metadata.data.map(JSONValue.object) ?? parsed(pass.dataJSON)
        object["registrations"] = .number(JSONNumber(metadata.registrations))
        if let queued = metadata.queuedPushes { object["push"] = ["queued": .number(JSONNumber(queued))] }
        if let pushes = metadata.pushes {
            let devices: [JSONValue] = pushes.map {
                ["device": .string($0.deviceLibraryIdentifier), "pending": .bool($0.pending), "last": parsed($0.lastResultJSON)]
            }
            func count(_ result: String) -> Int {
                pushes.filter { !$0.pending && parsed($0.lastResultJSON)["result"]?.stringValue == result }.count
            }
            object["pushes"] = [
                "pending": .number(JSONNumber(pushes.filter(\.pending).count)), "delivered": .number(JSONNumber(count("delivered"))),
                "failed": .number(JSONNumber(count("failed"))), "devices": .array(devices),
            ]
        }
        if let google = metadata.google {
            object["google"] = [
                "objectId": google.objectID.map(JSONValue.string) ?? .null, "pending": .bool(google.pending),
                "attempts": .number(JSONNumber(google.attempts)), "due": google.dueAt.map { .string(HTTPDate.string($0)) } ?? .null,
            ]
        }
        if let changed = metadata.changed { object["changed"] = .bool(changed) }
        if let erasedAt = pass.erasedAt { object["erasedAt"] = .string(erasedAt.formatted(.iso8601)) }
        if let links, pass.erasedAt == nil { object["links"] = ["download": .string(links.download), "add": .string(links.add)] }
        return object
    }
}
