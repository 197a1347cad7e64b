import Foundation

/// The typed model of `pass.json`: every key Wallet documents, with keys the model does not know kept in
/// ``additionalProperties`` so that nothing is dropped when a pass is decoded and encoded again.
///
/// Templates are rendered as ``JSONValue`` so their key order survives; use this model to build passes in code or to
/// read a pass's values with types. A pass read with ``init(json:)`` and written with ``jsonObject()`` keeps its member
/// order and number literals; members added in code follow, sorted.
public struct Pass: Codable, Sendable, Hashable {
    /// The pass style: which key of `pass.json` holds the fields.
    public enum Style: String, Codable, Sendable, CaseIterable {
        case boardingPass, coupon, eventTicket, generic, storeCard
    }

    // Standard keys.
    public var formatVersion: Int = 1
    public var passTypeIdentifier: String
    public var serialNumber: String
    public var teamIdentifier: String
    public var organizationName: String
    /// The VoiceOver description of the pass (the `description` key).
    public var description: String
    public var style: Style
    public var fields: PassFields
    /// iOS 27 `posterGeneric` (seen only in Apple's 2026 Pass Builder preview; see <doc:PassFormat>): the poster layout of a generic
    /// pass, written beside the classic ``style`` (a `generic` one), which older devices show.
    public var posterGeneric: PassFields?

    // Visual appearance.
    public var logoText: String?
    public var backgroundColor: String?
    public var foregroundColor: String?
    public var labelColor: String?
    public var stripColor: String?
    public var suppressStripShine: Bool?

    // Expiration, relevance.
    public var expirationDate: String?
    public var voided: Bool?
    public var relevantDate: String?
    public var relevantDates: [RelevantDate]?
    public var locations: [Location]?
    public var beacons: [Beacon]?
    public var maxDistance: Double?

    // Barcodes and NFC.
    public var barcodes: [Barcode]?
    /// Deprecated single barcode for iOS 8 and earlier.
    public var barcode: Barcode?
    public var nfc: NFC?

    // Web service, apps, sharing.
    public var webServiceURL: String?
    public var authenticationToken: String?
    public var associatedStoreIdentifiers: [Int]?
    public var auxiliaryStoreIdentifiers: [Int]?
    public var appLaunchURL: String?
    public var userInfo: JSONValue?
    public var sharingProhibited: Bool?
    public var groupingIdentifier: String?
    /// Semantic tags (event, venue, flight, seats, …).
    public var semantics: SemanticTags?
    public var preferredStyleSchemes: [String]?

    // Poster event tickets (iOS 18) and newer keys.
    public var footerBackgroundColor: String?
    public var suppressHeaderDarkening: Bool?
    public var useAutomaticColors: Bool?
    public var eventLogoText: String?
    /// Poster event ticket links and contacts (iOS 18), top-level keys such as `parkingInformationURL`.
    public var eventLinks = EventLinks()
    /// Semantic boarding pass links and contacts (iOS 26), top-level keys such as `managementURL`.
    public var boardingPassLinks = BoardingPassLinks()
    /// iOS 26: the later events of a poster event ticket that covers several.
    public var upcomingPassInformation: [UpcomingPassEntry]?
    /// iOS 27: an SF Symbol shown instead of `logo.png` (older devices still show the logo).
    public var logoSymbolName: String?
    /// iOS 27: at most 2 quick actions.
    public var featuredActions: [FeaturedAction]?

    /// Keys this model does not know, kept as they are.
    public var additionalProperties: JSONObject
    /// The JSON the pass was read from, for ``jsonObject()``'s member order.
    var layout = JSONLayout()

    public init(
        passTypeIdentifier: String, serialNumber: String, teamIdentifier: String, organizationName: String,
        description: String, style: Style, fields: PassFields
    ) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.teamIdentifier = teamIdentifier
        self.organizationName = organizationName
        self.description = description
        self.style = style
        self.fields = fields
        self.additionalProperties = JSONObject()
    }

    /// Poster event ticket link and contact keys (iOS 18), ``EventLinks/keys``.
    public static let posterURLKeys = EventLinks.keys

    /// Semantic boarding pass link and contact keys (iOS 26), ``BoardingPassLinks/keys``. `upcomingPassInformation`
    /// is not one of them: its entries are events of a poster event ticket (see ``UpcomingPassEntry``), so Passmint
    /// checks it as a poster key.
    public static let semanticBoardingPassKeys = BoardingPassLinks.keys

    package static let modelKeys: Set<String> = Set(
        [
            "formatVersion", "passTypeIdentifier", "serialNumber", "teamIdentifier", "organizationName", "description",
            "logoText", "backgroundColor", "foregroundColor", "labelColor", "stripColor", "suppressStripShine",
            "expirationDate", "voided", "relevantDate", "relevantDates", "locations", "beacons", "maxDistance",
            "barcodes", "barcode", "nfc", "webServiceURL", "authenticationToken", "associatedStoreIdentifiers",
            "auxiliaryStoreIdentifiers", "appLaunchURL", "userInfo", "sharingProhibited", "groupingIdentifier", "semantics",
            "preferredStyleSchemes", "footerBackgroundColor", "suppressHeaderDarkening", "useAutomaticColors", "eventLogoText",
            "upcomingPassInformation", "logoSymbolName", "featuredActions", "posterGeneric",
        ] + Style.allCases.map(\.rawValue) + posterURLKeys + semanticBoardingPassKeys)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        formatVersion = try c.required("formatVersion")
        passTypeIdentifier = try c.required("passTypeIdentifier")
        serialNumber = try c.required("serialNumber")
        teamIdentifier = try c.required("teamIdentifier")
        organizationName = try c.required("organizationName")
        description = try c.required("description")
        let styles = Style.allCases.filter { c.contains(AnyCodingKey($0.rawValue)) }
        guard styles.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath,
                    debugDescription:
                        "pass.json must have exactly one style key (\(Style.allCases.map(\.rawValue).joined(separator: ", "))), found \(styles.count)"
                ))
        }
        style = styles[0]
        fields = try c.required(style.rawValue)
        posterGeneric = try c.optional("posterGeneric")
        logoText = try c.optional("logoText")
        backgroundColor = try c.optional("backgroundColor")
        foregroundColor = try c.optional("foregroundColor")
        labelColor = try c.optional("labelColor")
        stripColor = try c.optional("stripColor")
        suppressStripShine = try c.optional("suppressStripShine")
        expirationDate = try c.optional("expirationDate")
        voided = try c.optional("voided")
        relevantDate = try c.optional("relevantDate")
        relevantDates = try c.optional("relevantDates")
        locations = try c.optional("locations")
        beacons = try c.optional("beacons")
        maxDistance = try c.optional("maxDistance")
        barcodes = try c.optional("barcodes")
        barcode = try c.optional("barcode")
        nfc = try c.optional("nfc")
        webServiceURL = try c.optional("webServiceURL")
        authenticationToken = try c.optional("authenticationToken")
        associatedStoreIdentifiers = try c.optional("associatedStoreIdentifiers")
        auxiliaryStoreIdentifiers = try c.optional("auxiliaryStoreIdentifiers")
        appLaunchURL = try c.optional("appLaunchURL")
        userInfo = try c.optional("userInfo")
        sharingProhibited = try c.optional("sharingProhibited")
        groupingIdentifier = try c.optional("groupingIdentifier")
        semantics = try (c.optional("semantics") as JSONValue?).flatMap(\.objectValue).map(SemanticTags.init)
        preferredStyleSchemes = try c.optional("preferredStyleSchemes")
        footerBackgroundColor = try c.optional("footerBackgroundColor")
        suppressHeaderDarkening = try c.optional("suppressHeaderDarkening")
        useAutomaticColors = try c.optional("useAutomaticColors")
        eventLogoText = try c.optional("eventLogoText")
        upcomingPassInformation = try c.optional("upcomingPassInformation")
        logoSymbolName = try c.optional("logoSymbolName")
        featuredActions = try c.optional("featuredActions")
        eventLinks = try EventLinks(from: decoder)
        boardingPassLinks = try BoardingPassLinks(from: decoder)
        additionalProperties = try c.unknownMembers(known: Self.modelKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(formatVersion, "formatVersion")
        try c.put(passTypeIdentifier, "passTypeIdentifier")
        try c.put(serialNumber, "serialNumber")
        try c.put(teamIdentifier, "teamIdentifier")
        try c.put(organizationName, "organizationName")
        try c.put(description, "description")
        try c.put(fields, style.rawValue)
        try c.put(posterGeneric, "posterGeneric")
        try c.put(logoText, "logoText")
        try c.put(backgroundColor, "backgroundColor")
        try c.put(foregroundColor, "foregroundColor")
        try c.put(labelColor, "labelColor")
        try c.put(stripColor, "stripColor")
        try c.put(suppressStripShine, "suppressStripShine")
        try c.put(expirationDate, "expirationDate")
        try c.put(voided, "voided")
        try c.put(relevantDate, "relevantDate")
        try c.put(relevantDates, "relevantDates")
        try c.put(locations, "locations")
        try c.put(beacons, "beacons")
        try c.put(maxDistance, "maxDistance")
        try c.put(barcodes, "barcodes")
        try c.put(barcode, "barcode")
        try c.put(nfc, "nfc")
        try c.put(webServiceURL, "webServiceURL")
        try c.put(authenticationToken, "authenticationToken")
        try c.put(associatedStoreIdentifiers, "associatedStoreIdentifiers")
        try c.put(auxiliaryStoreIdentifiers, "auxiliaryStoreIdentifiers")
        try c.put(appLaunchURL, "appLaunchURL")
        try c.put(userInfo, "userInfo")
        try c.put(sharingProhibited, "sharingProhibited")
        try c.put(groupingIdentifier, "groupingIdentifier")
        try c.put(semantics.map { JSONValue.object($0.json) }, "semantics")
        try c.put(preferredStyleSchemes, "preferredStyleSchemes")
        try c.put(footerBackgroundColor, "footerBackgroundColor")
        try c.put(suppressHeaderDarkening, "suppressHeaderDarkening")
        try c.put(useAutomaticColors, "useAutomaticColors")
        try c.put(eventLogoText, "eventLogoText")
        try c.put(upcomingPassInformation, "upcomingPassInformation")
        try c.put(logoSymbolName, "logoSymbolName")
        try c.put(featuredActions, "featuredActions")
        for (key, value) in eventLinks.values + boardingPassLinks.values { try c.put(value, key) }
        try c.put(unknown: additionalProperties)
    }
}

extension Pass {
    /// Decodes a pass from its JSON object. Errors name the key path that is wrong.
    public init(json: JSONObject) throws(PassmintError) {
        do {
            self = try JSONDecoder().decode(Pass.self, from: Data(JSONWriter.data(.object(json), style: .compact)))
            layout = JSONLayout(source: .object(json))
        } catch let error as DecodingError {
            throw PassmintError(.invalidPass, "pass.json: \(Self.describe(error))")
        } catch {
            throw PassmintError(.invalidPass, "pass.json: \(error)")
        }
    }

    /// The pass as a JSON object: in the order of the JSON it was read from (``init(json:)``), with members that JSON
    /// lacked after them; keys sorted for a pass made in code.
    public func jsonObject() throws(PassmintError) -> JSONObject {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(self)
            let written = try JSONParser.value(Array(data))
            return (layout.source.map { written.laidOut(like: $0) } ?? written).objectValue ?? JSONObject()
        } catch {
            throw PassmintError(.invalidPass, "cannot encode the pass: \(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { result, key in
                if let index = key.intValue { return result + "[\(index)]" }
                if key.stringValue.hasPrefix("Index "), let index = Int(key.stringValue.dropFirst(6)) { return result + "[\(index)]" }
                return result.isEmpty ? key.stringValue : result + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the required key \(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) has the wrong type (expected \(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null (expected \(type))"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
