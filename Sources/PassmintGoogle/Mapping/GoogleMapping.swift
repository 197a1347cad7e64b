public import Foundation
public import Passmint

/// Turns a pass (its `pass.json` with the data filled in, and its files) into a Google Wallet class and object of
/// the matching style, and lists what has no Google equivalent as lint findings (warnings with codes starting
/// `google-`), so nothing is dropped silently. The table in docs/google-wallet.md is what this does.
public struct GoogleMapping: Sendable {
    /// What the mapping needs beyond the pass.
    public struct Options: Sendable {
        public var issuerID: String
        /// The class id's suffix; by default the template's name.
        public var classSuffix: String?
        /// Where the template's images are served (Google fetches images by URL): `<base>/<file>`, e.g.
        /// `https://passes.example.com/google/images/Loyalty/logo@3x.png`. Without it images are reported, not sent.
        public var imageBaseURL: URL?
        /// Where each image is served, by its path in the pass (`logo@3x.png`), when each has its own address (the
        /// service's, by content); nil for an image not served. Takes the place of ``imageBaseURL``.
        public var imageURL: (@Sendable (String) -> URL?)?
        /// A store card as a gift card (true), a loyalty card (false), or by its fields (nil: a primary field with a
        /// currency code is a balance, so a gift card).
        public var storeCardIsGiftCard: Bool?
        /// The language of `defaultValue` in localized texts; by default `en` or the first translated language.
        public var defaultLanguage: String?
        /// Where Google posts a save/delete callback for the class's objects (`callbackOptions.url`); nil: none.
        public var callbackURL: String?

        public init(
            issuerID: String, classSuffix: String? = nil, imageBaseURL: URL? = nil, storeCardIsGiftCard: Bool? = nil,
            defaultLanguage: String? = nil
        ) {
            self.issuerID = issuerID
            self.classSuffix = classSuffix
            self.imageBaseURL = imageBaseURL
            self.storeCardIsGiftCard = storeCardIsGiftCard
            self.defaultLanguage = defaultLanguage
        }
    }

    /// The result: a class, an object referring to it, and what did not carry over.
    public struct Mapped: Sendable {
        public var style: GoogleWalletStyle
        public var classBody: JSONObject
        public var objectBody: JSONObject
        public var findings: [Diagnostic]
        public var classID: String { classBody["id"]?.stringValue ?? "" }
        public var objectID: String { objectBody["id"]?.stringValue ?? "" }
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// Maps one pass. `templateName` names the class (`Loyalty` for `Loyalty.pass`).
    public func map(pass: JSONObject, files: [PassContents.File], templateName: String) throws(GoogleWalletError) -> Mapped {
        guard let found = Self.style(of: pass, storeCardIsGiftCard: options.storeCardIsGiftCard) else {
            throw GoogleWalletError(
                .refused, "pass.json has none of boardingPass, coupon, eventTicket, generic or storeCard: it has no style to map")
        }
        let (style, styleKey) = found
        var imageURL = options.imageURL
        if imageURL == nil, let base = options.imageBaseURL { imageURL = { base.appendingPathComponent($0) } }
        var context = GoogleMappingContext(
            pass: pass, style: style, styleKey: styleKey, files: files,
            imageURL: imageURL,
            localizer: GoogleLocalizer(files: files, defaultLanguage: options.defaultLanguage))
        let serial = pass["serialNumber"]?.stringValue ?? ""
        // A pass without its type (a template checked before signing, by lint or preview) is named by its template.
        let typeOrTemplate = pass["passTypeIdentifier"]?.stringValue ?? templateName
        let objectID = try GoogleWalletIdentifier.objectID(
            issuerID: options.issuerID, passTypeIdentifier: typeOrTemplate, serialNumber: serial)
        context.objectBody["id"] = .string(objectID)
        context.objectBody["state"] = pass["voided"]?.boolValue == true ? "INACTIVE" : "ACTIVE"
        context.mapCommon()
        context.mapStyleSlots()
        context.mapRemainingFields()
        context.reportUnmappedKeys()
        var classSuffix = options.classSuffix ?? templateName
        if style == .flight, let flight = context.flightClassSuffix { classSuffix += "." + flight }
        let classID = try GoogleWalletIdentifier.make(issuerID: options.issuerID, suffix: classSuffix)
        context.classBody["id"] = .string(classID)
        if let url = options.callbackURL { context.classBody["callbackOptions"] = .object(["url": .string(url)]) }
        context.objectBody["classId"] = .string(classID)
        return Mapped(
            style: style, classBody: context.classBody.reordered(first: "id"), objectBody: context.objectBody.reordered(first: "id"),
            findings: context.findings)
    }

    /// The Google style of a pass, and its style key in pass.json.
    static func style(of pass: JSONObject, storeCardIsGiftCard: Bool?) -> (GoogleWalletStyle, String)? {
        if let boarding = pass["boardingPass"]?.objectValue {
            return (boarding["transitType"]?.stringValue == "PKTransitTypeAir" ? .flight : .transit, "boardingPass")
        }
        if pass["eventTicket"] != nil { return (.eventTicket, "eventTicket") }
        if pass["coupon"] != nil { return (.offer, "coupon") }
        if pass["generic"] != nil { return (.generic, "generic") }
        if let store = pass["storeCard"]?.objectValue {
            let balance = (store["primaryFields"]?.arrayValue ?? []).contains { $0["currencyCode"] != nil }
            return ((storeCardIsGiftCard ?? balance) ? .giftCard : .loyalty, "storeCard")
        }
        return nil
    }
}

extension JSONObject {
    /// The same members with `key` first (ids read first in logs and requests).
    func reordered(first key: String) -> JSONObject {
        guard let value = self[key] else { return self }
        var result: JSONObject = [key: value]
        for member in self where member.key != key { result[member.key] = member.value }
        return result
    }
}
