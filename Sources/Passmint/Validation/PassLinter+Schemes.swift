/// Rules on the iOS 18+ keys: `preferredStyleSchemes` (poster event tickets, semantic boarding passes), the keys only
/// those schemes use, and the iOS 27 keys seen in Apple's Pass Builder (`posterGeneric`,
/// `featuredActions`, `logoSymbolName`).
extension JSONRules {
    /// The schemes Wallet knows: iOS 18 `posterEventTicket`/`eventTicket`, iOS 26 `semanticBoardingPass`/`boardingPass`.
    static let knownSchemes: [String: String] = Dictionary(
        uniqueKeysWithValues: Pass.StyleScheme.allCases.map { ($0.rawValue, $0.style.rawValue) })

    /// The scheme strings of `preferredStyleSchemes` (placeholders left out).
    var schemes: [String] {
        (pass["preferredStyleSchemes"]?.arrayValue ?? []).compactMap { value in
            guard let text = value.stringValue, !isWholePlaceholder(value) else { return nil }
            return text
        }
    }

    /// The pass asks for the poster event ticket layout and is an event ticket.
    var isPosterEventTicket: Bool { style == "eventTicket" && schemes.contains("posterEventTicket") }
    /// The pass asks for the semantic boarding pass layout and is a boarding pass.
    var isSemanticBoardingPass: Bool { style == "boardingPass" && schemes.contains("semanticBoardingPass") }

    /// Keys only poster event tickets use (see <doc:PassFormat>; `upcomingPassInformation`: see
    /// ``JSONRules/upcomingPassInformation()``).
    static let posterOnlyKeys =
        Pass.posterURLKeys + [
            "eventLogoText", "footerBackgroundColor", "suppressHeaderDarkening", "useAutomaticColors", "upcomingPassInformation",
        ]

    mutating func styleSchemes() {
        guard let list = pass["preferredStyleSchemes"]?.arrayValue else { return }
        for (index, value) in list.enumerated() where !(isTemplate && isWholePlaceholder(value)) {
            let path = "preferredStyleSchemes[\(index)]"
            guard let scheme = value.stringValue else {
                error("key-type", path, "a style scheme must be a string, not \(value.typeName)", fix: "write e.g. \"posterEventTicket\"")
                continue
            }
            guard let schemeStyle = Self.knownSchemes[scheme] else {
                warning(
                    "style-scheme-unknown", path, "\"\(scheme)\" is not a style scheme Wallet knows, so it is ignored",
                    fix: "use posterEventTicket and eventTicket (event tickets) or semanticBoardingPass and boardingPass (boarding passes)")
                continue
            }
            if let style, style != schemeStyle {
                error(
                    "style-scheme-mismatch", path, "\(scheme) is a scheme for \(schemeStyle) passes, but this pass is a \(style)",
                    fix: "remove \"\(scheme)\", or make the pass a \(schemeStyle)")
            }
        }
        for (enhanced, classic) in [("posterEventTicket", "eventTicket"), ("semanticBoardingPass", "boardingPass")] where style == classic {
            let schemes = self.schemes
            guard let enhancedIndex = schemes.firstIndex(of: enhanced) else { continue }
            if let classicIndex = schemes.firstIndex(of: classic) {
                if classicIndex < enhancedIndex {
                    warning(
                        "style-scheme-order", "preferredStyleSchemes",
                        "\(classic) comes before \(enhanced): Wallet takes the first scheme the pass meets, so it never uses \(enhanced)",
                        fix: "list them as [\"\(enhanced)\", \"\(classic)\"]")
                }
            } else {
                warning(
                    "style-scheme-fallback-missing", "preferredStyleSchemes", "\(enhanced) has no classic fallback after it",
                    fix:
                        "list them as [\"\(enhanced)\", \"\(classic)\"], and keep the classic fields for devices before iOS \(enhanced == "posterEventTicket" ? "18" : "26")"
                )
            }
        }
        if isSemanticBoardingPass, let transit = pass["boardingPass"]?["transitType"]?.stringValue, transit != "PKTransitTypeAir",
            !(isTemplate && isWholePlaceholder(.string(transit)))
        {
            error(
                "semantic-boarding-pass-transit", "boardingPass.transitType",
                "a semantic boarding pass must be an airline boarding pass, but transitType is \(transit)",
                fix: "set \"transitType\": \"PKTransitTypeAir\", or remove \"semanticBoardingPass\" from preferredStyleSchemes")
        }
    }

    mutating func schemeOnlyKeys() {
        if !isPosterEventTicket {
            for key in Self.posterOnlyKeys where pass.contains(key) {
                warning(
                    "poster-key-without-scheme", key, "\(key) is only used by poster event tickets, and this pass is not one",
                    fix: "add \"preferredStyleSchemes\": [\"posterEventTicket\", \"eventTicket\"] to an event ticket, or remove \(key)")
            }
        }
        if !isSemanticBoardingPass {
            for key in Pass.semanticBoardingPassKeys where pass.contains(key) {
                warning(
                    "semantic-boarding-key-without-scheme", key,
                    "\(key) is only used by semantic boarding passes, and this pass is not one",
                    fix:
                        "add \"preferredStyleSchemes\": [\"semanticBoardingPass\", \"boardingPass\"] to an airline boarding pass, or remove \(key)"
                )
            }
        }
    }

    /// `posterGeneric`, `featuredActions` and `logoSymbolName`: iOS 27 keys, seen only in Apple's 2026 Pass Builder
    /// preview (see <doc:PassFormat>), so checked loosely.
    mutating func futureKeys() {
        if pass.contains("posterGeneric") && style == nil {
            error(
                "poster-generic-fallback-missing", "posterGeneric",
                "posterGeneric needs iOS 27; without a classic style key older devices cannot show the pass",
                fix: "add a \"generic\" style with the same fields as the fallback")
        }
        if let actions = pass["featuredActions"]?.arrayValue {
            if actions.count > 2 {
                error(
                    "featured-actions-max", "featuredActions", "\(actions.count) featured actions; Wallet shows at most 2",
                    fix: "keep the 2 most useful actions")
            }
            for (index, action) in actions.enumerated() where action.objectValue == nil && !(isTemplate && isWholePlaceholder(action)) {
                error(
                    "key-type", "featuredActions[\(index)]", "a featured action must be an object, not \(action.typeName)",
                    fix: "write { … } for each action")
            }
        }
    }
}

extension FileRules {
    /// Poster images: `artwork` is required by the poster layout (Apple's Pass Builder refuses a poster event ticket
    /// with neither artwork nor background), `primaryLogo` is shown on it (Apple's Human Interface Guidelines, “Wallet”).
    mutating func checkPosterImages(names: Set<String>) {
        guard style == "eventTicket", isPoster else { return }
        if !names.contains("artwork") {
            error(
                "poster-artwork-missing", "artwork.png",
                "a poster event ticket needs artwork; without it Wallet shows the classic event ticket",
                fix: "add artwork.png (358×448), artwork@2x.png (716×896) and artwork@3x.png (1074×1344)")
        }
        if !names.contains("primaryLogo") {
            warning(
                "poster-logo-missing", "primaryLogo.png", "a poster event ticket shows primaryLogo at its top, and this pass has none",
                fix: "add primaryLogo.png (at most 126×30), @2x and @3x")
        }
    }

    /// `logoSymbolName` (iOS 27) replaces the logo only on devices that know it: older ones show `logo.png`.
    mutating func checkLogoSymbol(names: Set<String>) {
        guard pass["logoSymbolName"] != nil, !names.contains("logo") else { return }
        warning(
            "logo-symbol-without-logo", "logo.png",
            "logoSymbolName is only shown from iOS 27 on; older devices show logo.png, which is missing",
            fix: "add logo.png (at most 160×50), @2x and @3x")
    }
}
