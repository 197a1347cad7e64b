import Passmint
import PassmintStore

/// ``PassMetadata`` as the issuing API writes it.
enum PassMetadataJSON {
    /// `passTypeIdentifier`, `serialNumber`, `authenticationToken`, `template`, `updateTag` (a string), `lastModified`,
    /// `voided`, `url`, `data`, `personalization`, `registrations`, and `push` (the push this request made) or
    /// `lastPush`; `changed` for an update; `links` (`download`, `add`) when the service has a link secret.
    static func object(_ metadata: PassMetadata, publicURL: String, links: PassLinks.Links? = nil) -> JSONObject {
        let pass = metadata.pass
        func parsed(_ text: String?) -> JSONValue { text.flatMap { try? JSONParser.value(Array($0.utf8)) } ?? .null }
        var object: JSONObject = [
            "passTypeIdentifier": .string(pass.passTypeIdentifier), "serialNumber": .string(pass.serialNumber),
            "authenticationToken": .string(pass.authenticationToken), "template": .string(pass.template),
            "updateTag": .string(String(pass.updateTag)), "lastModified": .string(HTTPDate.string(pass.updatedAt)),
            "voided": .bool(pass.voided),
            "url": .string(publicURL + "/v1/passes/\(pass.passTypeIdentifier)/\(pass.serialNumber)"),
        ]
        object["data"] = metadata.data.map(JSONValue.object) ?? parsed(pass.dataJSON)
        object["personalization"] = parsed(pass.personalizationJSON)
        object["registrations"] = .number(JSONNumber(metadata.registrations))
        if let push = metadata.push {
            object["push"] = push.json
        } else {
            object["lastPush"] = parsed(pass.lastPushJSON)
        }
        if let changed = metadata.changed { object["changed"] = .bool(changed) }
        if let links { object["links"] = ["download": .string(links.download), "add": .string(links.add)] }
        return object
    }
}
