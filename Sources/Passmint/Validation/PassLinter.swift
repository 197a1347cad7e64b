import Foundation

/// Every rule Passmint knows about what makes Wallet refuse a pass, or show it badly. Each finding is a
/// ``Diagnostic`` with a stable code, the file and JSON path, a message and a fix.
public enum PassLinter {
    /// Lints a whole pass or template: `pass.json` and its files.
    public static func lint(_ contents: PassContents, options: LintOptions = .init()) -> [Diagnostic] {
        var diagnostics = contents.readingDiagnostics
        guard let pass = contents.passJSON else { return diagnostics }
        diagnostics += lintJSON(pass, isTemplate: contents.isTemplate, options: options)
        diagnostics += lintFiles(contents.files, pass: pass)
        return sorted(diagnostics)
    }

    /// Errors first, then by file and path; the order of findings within one place is kept.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            if a.element.severity != b.element.severity { return a.element.severity < b.element.severity }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The rules on `pass.json` alone.
    public static func lintJSON(_ pass: JSONObject, isTemplate: Bool = false, options: LintOptions = .init()) -> [Diagnostic] {
        var rules = JSONRules(pass: pass, isTemplate: isTemplate, options: options)
        rules.run()
        return rules.found
    }

    /// The rules on the files (images, localizations, personalization) in the light of `pass.json`.
    public static func lintFiles(_ files: [PassContents.File], pass: JSONObject) -> [Diagnostic] {
        var rules = FileRules(files: files, pass: pass)
        rules.run()
        return rules.found
    }
}

/// Whether a value is exactly one `{{placeholder}}`, which a template may use where any type is expected.
func isWholePlaceholder(_ value: JSONValue) -> Bool {
    guard case .string(let string) = value, let pieces = Placeholders.pieces(of: string), pieces.count == 1,
        case .placeholder = pieces[0]
    else { return false }
    return true
}

/// The rules on `pass.json` that need no other file.
extension JSONRules {
    mutating func identifiers() {
        if let id = pass["passTypeIdentifier"]?.stringValue, !isWholePlaceholder(.string(id)), !id.hasPrefix("pass.") {
            error(
                "pass-type-identifier-format", "passTypeIdentifier", "\"\(id)\" does not start with \"pass.\"",
                fix: "use the pass type identifier registered with Apple, e.g. pass.com.example.membership")
        }
        if let team = pass["teamIdentifier"]?.stringValue, !isWholePlaceholder(.string(team)),
            team.count != 10 || !team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
        {
            warning(
                "team-identifier-format", "teamIdentifier", "\"\(team)\" does not look like a 10-character Team ID",
                fix: "use the Team ID shown in your Apple Developer account (the OU of your certificate)")
        }
    }

    mutating func relevance() {
        for key in ["locations", "beacons"] {
            if let count = pass[key]?.arrayValue?.count, count > 10 {
                error("\(key)-max", key, "\(count) \(key); Wallet uses at most 10", fix: "keep the 10 most relevant")
            }
        }
        if let style, pass.contains("groupingIdentifier"), style != "boardingPass", style != "eventTicket" {
            warning(
                "grouping-identifier-style", "groupingIdentifier", "groupingIdentifier only groups boarding passes and event tickets",
                fix: "remove it from a \(style)")
        }
        if pass.contains("appLaunchURL") && (pass["associatedStoreIdentifiers"]?.arrayValue ?? []).isEmpty {
            error(
                "app-launch-url-without-store", "appLaunchURL",
                "appLaunchURL has no associatedStoreIdentifiers, so Wallet has no app to open",
                fix: "add \"associatedStoreIdentifiers\": [your App Store id]")
        }
        for key in ["associatedStoreIdentifiers", "auxiliaryStoreIdentifiers"] {
            for (index, element) in (pass[key]?.arrayValue ?? []).enumerated()
            where element.numberValue == nil && !(isTemplate && isWholePlaceholder(element)) {
                error(
                    "key-type", "\(key)[\(index)]", "App Store identifiers must be numbers, not \(element.typeName)",
                    fix: "write the id without quotes")
            }
        }
    }

    mutating func webService() {
        let url = pass["webServiceURL"]?.stringValue
        let token = pass["authenticationToken"]?.stringValue
        if let url, !isWholePlaceholder(.string(url)) {
            let lower = url.lowercased()
            if lower.hasPrefix("http://") {
                if options.allowHTTPWebService {
                    warning(
                        "web-service-url-insecure", "webServiceURL",
                        "webServiceURL uses http: devices accept it only with the developer setting Allow HTTP Services",
                        fix: "use https in production")
                } else {
                    error(
                        "web-service-url-insecure", "webServiceURL",
                        "webServiceURL must use https (http works only on development devices)",
                        fix: "use an https URL, or lint with --allow-http for a development service")
                }
            } else if !lower.hasPrefix("https://") || URL(string: url)?.host == nil {
                error(
                    "web-service-url-invalid", "webServiceURL", "\"\(url)\" is not an https URL",
                    fix: "write e.g. https://passes.example.com/wallet")
            }
            if token == nil {
                error(
                    "authentication-token-missing", "authenticationToken", "webServiceURL is set but authenticationToken is missing",
                    fix: "add an authenticationToken of at least 16 random characters")
            }
        }
        if let token, !isWholePlaceholder(.string(token)) {
            if token.count < WalletWebService.minimumTokenLength {
                error(
                    "authentication-token-short", "authenticationToken",
                    "authenticationToken has \(token.count) characters; Wallet needs at least 16",
                    fix: "use at least 16 random characters (Passmint's batch and service make 22)")
            }
            if url == nil {
                warning(
                    "authentication-token-unused", "authenticationToken", "authenticationToken is set but webServiceURL is not",
                    fix: "add webServiceURL, or remove the token")
            }
        }
    }

    static let classicBarcodeFormats: Set<String> = [
        "PKBarcodeFormatQR", "PKBarcodeFormatPDF417", "PKBarcodeFormatAztec", "PKBarcodeFormatCode128",
    ]
    static let newBarcodeFormats: Set<String> = [
        "PKBarcodeFormatCode39", "PKBarcodeFormatCodabar", "PKBarcodeFormatEAN13", "PKBarcodeFormatI2of5",
    ]

    mutating func barcodes() {
        let list = pass["barcodes"]?.arrayValue ?? []
        var formats: [String] = []
        for (index, barcode) in list.enumerated() {
            guard let format = barcode["format"]?.stringValue else { continue }
            if isTemplate && isWholePlaceholder(.string(format)) { continue }
            formats.append(format)
            if !Self.classicBarcodeFormats.contains(format) && !Self.newBarcodeFormats.contains(format) {
                error(
                    "barcode-format", "barcodes[\(index)].format", "\"\(format)\" is not a barcode format Wallet knows",
                    fix: "use PKBarcodeFormatQR, PKBarcodeFormatPDF417, PKBarcodeFormatAztec or PKBarcodeFormatCode128")
            }
            if let message = barcode["message"]?.stringValue, let encoding = barcode["messageEncoding"]?.stringValue,
                encoding.lowercased() == "iso-8859-1", message.unicodeScalars.contains(where: { $0.value > 0xFF })
            {
                warning(
                    "barcode-encoding", "barcodes[\(index)].message", "the message has characters that iso-8859-1 cannot encode",
                    fix: "use \"messageEncoding\": \"utf-8\" or keep the message to Latin-1")
            }
        }
        if let lastNew = formats.lastIndex(where: { Self.newBarcodeFormats.contains($0) }),
            !formats[(lastNew + 1)...].contains(where: { Self.classicBarcodeFormats.contains($0) })
        {
            error(
                "barcode-fallback-missing", "barcodes[\(lastNew)].format",
                "\(formats[lastNew]) needs iOS 27; older devices show no barcode because no classic format follows it",
                fix: "add a PKBarcodeFormatQR, PDF417, Aztec or Code128 entry after it")
        }
        if !formats.isEmpty && formats.allSatisfy({ $0 == "PKBarcodeFormatCode128" }) {
            warning(
                "barcode-watch", "barcodes", "Code 128 is the only barcode: Apple Watch cannot show it, so the pass has no barcode there",
                fix: "add a QR, PDF417 or Aztec entry after the Code 128 one")
        }
        if pass.contains("barcode") && list.isEmpty {
            warning(
                "barcode-deprecated", "barcode", "the single barcode key is only for iOS 8 and earlier",
                fix: "put the barcode in \"barcodes\": [ … ] too")
        }
    }

    mutating func nfc() {
        guard let nfc = pass["nfc"]?.objectValue else { return }
        warning(
            "nfc-certificate", "nfc",
            "NFC passes need a Pass Type ID certificate with NFC enabled (\"Pass Type ID with NFC\"), granted by Apple",
            fix: "request the NFC entitlement for this pass type ID and sign with that certificate")
        if let message = nfc["message"]?.stringValue, !(isTemplate && isWholePlaceholder(.string(message))), message.utf8.count > 64 {
            error(
                "nfc-message-length", "nfc.message", "the NFC message is \(message.utf8.count) bytes; terminals read at most 64",
                fix: "shorten it to 64 bytes of UTF-8")
        }
        if let key = nfc["encryptionPublicKey"]?.stringValue, !(isTemplate && isWholePlaceholder(.string(key))) {
            if let info = PublicKeyInfo.cached(base64: key) {
                if !info.isP256 {
                    error(
                        "nfc-public-key", "nfc.encryptionPublicKey",
                        "the key is \(info.algorithm)\(info.curve.map { " on \($0)" } ?? ""), not EC P-256",
                        fix: "use the base64 DER SubjectPublicKeyInfo of an EC P-256 key (openssl ec -pubout -outform DER | base64)")
                }
            } else {
                error(
                    "nfc-public-key", "nfc.encryptionPublicKey", "the value is not base64 of a DER SubjectPublicKeyInfo",
                    fix: "use the base64 DER SubjectPublicKeyInfo of an EC P-256 key (openssl ec -pubout -outform DER | base64)")
            }
        }
        if nfc["requiresAuthentication"]?.boolValue == true && pass["sharingProhibited"]?.boolValue != true {
            warning(
                "nfc-sharing", "sharingProhibited", "requiresAuthentication can be bypassed by sharing the pass to an older iOS",
                fix: "set \"sharingProhibited\": true")
        }
    }
}
