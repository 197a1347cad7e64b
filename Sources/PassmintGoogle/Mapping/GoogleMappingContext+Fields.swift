import Foundation
import Passmint

extension GoogleMappingContext {
    /// Fields no slot took: front and back fields become text modules, back fields holding a link a links module.
    /// Field options Google cannot show are reported once per option, naming the fields.
    mutating func mapRemainingFields() {
        var links: [JSONValue] = []
        for field in fields {
            if !field.isFront, let uri = field.link {
                var link: JSONObject = ["uri": .string(uri), "id": .string(Self.moduleID(field.key))]
                if let label = field.label { link["description"] = .string(localizer.text(label)) }
                links.append(.object(link))
            } else {
                appendToObject("textModulesData", textModule(field))
            }
        }
        if !links.isEmpty { objectBody["linksModuleData"] = ["uris": .array(links)] }
        reportFieldOptions()
    }

    private mutating func reportFieldOptions() {
        let all = GoogleMappedField.all(in: pass[styleKey]?.objectValue ?? JSONObject(), styleKey: styleKey)
        let options: [(String, String)] = [
            ("changeMessage", "Google does not show Apple's change messages; it notifies of some changes on its own"),
            ("dateStyle", "Google shows dates as written, not formatted for the phone's locale"),
            ("timeStyle", "Google shows times as written, not formatted for the phone's locale"),
            ("isRelative", "Google shows dates as written, not relative"),
            ("ignoresTimeZone", "Google shows dates as written"),
            ("textAlignment", "Google lays out fields itself"),
            ("dataDetectorTypes", "Google detects links in text itself"),
            ("semantics", "fields' semantic tags have no Google equivalent"),
            ("row", "Google lays out fields itself"),
        ]
        for (option, message) in options {
            let keys = all.filter { $0.object[option] != nil }.map(\.key)
            guard !keys.isEmpty else { continue }
            report("\(styleKey).*.\(option)", "\(option) on \(keys.joined(separator: ", ")): \(message)", fix: "nothing to do")
        }
        let styleObject = pass[styleKey]?.objectValue ?? JSONObject()
        let known = Set(GoogleMappedField.frontAreas + GoogleMappedField.backAreas + ["transitType"])
        for member in styleObject where !known.contains(member.key) {
            report("\(styleKey).\(member.key)", "\(member.key) has no Google Wallet equivalent", fix: "nothing to do")
        }
    }

    /// Every top-level key of pass.json not carried over is reported.
    mutating func reportUnmappedKeys() {
        let hints: [String: String] = [
            "description": "Google reads the card's own texts aloud; the VoiceOver description is not sent",
            "foregroundColor": "Google picks text colours to suit the background colour",
            "labelColor": "Google picks label colours to suit the background colour",
            "nfc": "Google's NFC (Smart Tap) needs its own set-up with Google; the Apple NFC payload is not sent",
            "beacons": "Google Wallet has no iBeacon relevance",
            "maxDistance": "Google decides itself how near a location counts",
            "associatedStoreIdentifiers": "Google links apps with appLinkData, not App Store ids",
            "appLaunchURL": "Google links apps with appLinkData, not App Store ids",
            "userInfo": "userInfo is for your app only",
            "preferredStyleSchemes": "Google has no poster or semantic layouts",
            "suppressStripShine": "Google draws no strip shine",
        ]
        if files.contains(where: { $0.path == "personalization.json" }) {
            report(
                "", "Google Wallet has no sign-up form: personalization.json is not carried over",
                fix: "collect the details on your own page",
                file: "personalization.json")
        }
        for member in pass where !handledKeys.contains(member.key) {
            report(member.key, hints[member.key] ?? "\(member.key) has no Google Wallet equivalent", fix: "nothing to do")
        }
    }
}
