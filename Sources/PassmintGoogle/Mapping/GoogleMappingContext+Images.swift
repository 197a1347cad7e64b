import Foundation
import Passmint

extension GoogleMappingContext {
    /// Google fetches images by URL: each image the pass has is sent as its address (``imageURL``) in the slot the
    /// style has for it: its largest version, from the default language's `.lproj` when only there.
    mutating func mapImages() {
        let slots: [(name: String, slot: String?)] = [
            ("logo", logoSlot as String?), ("strip", "heroImage"), ("artwork", "heroImage"), ("background", "heroImage"),
            ("thumbnail", "imageModulesData"),
            ("icon", nil), ("footer", nil), ("primaryLogo", nil), ("secondaryLogo", nil), ("personalizationLogo", nil),
        ]
        var heroFrom: String?
        for (name, slot) in slots {
            guard let file = bestFile(named: name) else { continue }
            guard let slot else {
                let note = name == "icon" ? " (it shows the logo instead)" : ""
                report(name, "Google Wallet has no place for \(name).png\(note)", fix: "nothing to do", file: file)
                continue
            }
            guard let url = imageURL?(file) else {
                report(
                    name, "\(file) is not sent: Google fetches images by URL",
                    fix: "give the public base URL the images are served at (--image-base-url)", file: file)
                continue
            }
            let image: JSONValue = ["sourceUri": ["uri": .string(url.absoluteString)]]
            switch slot {
            case "heroImage":
                if let heroFrom {
                    report(name, "Google shows one hero image; \(heroFrom).png is used", fix: "nothing to do", file: file)
                    continue
                }
                heroFrom = name
                if style == .generic { objectBody["heroImage"] = image } else { classBody["heroImage"] = image }
            case "imageModulesData":
                objectBody["imageModulesData"] = [["id": .string(name), "mainImage": image]]
            case "flightLogo":
                var header = classBody["flightHeader"]?.objectValue ?? JSONObject()
                var carrier = header["carrier"]?.objectValue ?? JSONObject()
                carrier["airlineLogo"] = image
                header["carrier"] = .object(carrier)
                classBody["flightHeader"] = .object(header)
            case "objectLogo": objectBody["logo"] = image
            default: classBody[slot] = image
            }
        }
    }

    /// Where a style puts the logo.
    private var logoSlot: String {
        switch style {
        case .loyalty, .giftCard: "programLogo"
        case .eventTicket, .transit: "logo"
        case .offer: "titleImage"
        case .flight: "flightLogo"
        case .generic: "objectLogo"
        }
    }

    /// The largest version of an image (`@3x`, `@2x`, then `1x`), at the top level or in the default language's
    /// `.lproj` folder.
    private func bestFile(named name: String) -> String? {
        let folders = ["", "\(localizer.defaultLanguage).lproj/"]
        for folder in folders {
            for scale in ["@3x", "@2x", ""] {
                let path = "\(folder)\(name)\(scale).png"
                if files.contains(where: { $0.path == path }) { return path }
            }
        }
        return nil
    }
}
