import Foundation

/// Rules on semantic tags (`semantics`, at the top level and in fields): the tags a poster event ticket and a semantic
/// boarding pass need, and the JSON types of the tags Passmint checks.
extension JSONRules {
    /// Required for a poster event ticket; without any of them Wallet shows the classic event ticket. Source: Apple,
    /// "Creating a poster event pass using semantic tags" (Wallet Passes documentation, 2026), "Add the required
    /// semantic tags"; Apple's Pass Builder (`EventTicketValidator`) checks the same.
    static let posterRequiredTags = ["eventName", "venueName", "venueRegionName", "venueRoom"]
    /// Also required when `eventType` is `PKEventTypeSports` (same source).
    static let posterSportsTags = ["awayTeamAbbreviation", "homeTeamAbbreviation"]
    /// Also required when `eventType` is `PKEventTypeLivePerformance` (same source).
    static let posterLivePerformanceTags = ["performerNames"]

    /// Required for a semantic boarding pass; without any of them Wallet shows the classic boarding pass. Source: Apple,
    /// "Creating an airline boarding pass using semantic tags" (Wallet Passes documentation, 2026), "Add the required
    /// semantic tags". Apple's Pass Builder spells the time zones `departureAirportTimeZone`/`destinationAirportTimeZone`
    /// and only warns about the city names; either time-zone spelling is accepted here.
    static let boardingRequiredTags: [(tag: String, aliases: [String])] = [
        ("airlineCode", []), ("flightNumber", []), ("departureAirportCode", []), ("departureCityName", []),
        ("departureLocationTimeZone", ["departureAirportTimeZone"]), ("destinationAirportCode", []), ("destinationCityName", []),
        ("destinationLocationTimeZone", ["destinationAirportTimeZone"]), ("originalArrivalDate", []), ("originalBoardingDate", []),
        ("originalDepartureDate", []), ("passengerName", []),
    ]

    /// The JSON type of a semantic tag (Apple's `SemanticTags` reference).
    enum TagKind {
        case string, number, boolean, date, location, stringArray, object, objectArray
    }

    static let tagKinds: [String: TagKind] = {
        var kinds: [String: TagKind] = [:]
        for tag in [
            "eventStartDate", "eventEndDate", "originalArrivalDate", "originalBoardingDate", "originalDepartureDate", "currentArrivalDate",
            "currentBoardingDate", "currentDepartureDate", "venueDoorsOpenDate", "venueOpenDate", "venueCloseDate", "venueGatesOpenDate",
            "venueFanZoneOpenDate", "venueParkingLotsOpenDate", "venueBoxOfficeOpenDate",
        ] { kinds[tag] = .date }
        for tag in ["venueLocation", "departureLocation", "destinationLocation"] { kinds[tag] = .location }
        for tag in [
            "eventName", "eventType", "venueName", "venueRegionName", "venueRoom", "venueEntrance", "venuePhoneNumber", "admissionLevel",
            "attendeeName", "awayTeamAbbreviation", "awayTeamName", "awayTeamLocation", "homeTeamAbbreviation", "homeTeamName",
            "homeTeamLocation", "leagueName", "leagueAbbreviation", "sportName", "genre", "airlineCode", "flightCode",
            "departureAirportCode", "departureAirportName", "departureCityName", "departureGate", "departureTerminal",
            "departureLocationTimeZone", "departureAirportTimeZone", "destinationAirportCode", "destinationAirportName",
            "destinationCityName", "destinationGate", "destinationTerminal", "destinationLocationTimeZone", "destinationAirportTimeZone",
            "boardingGroup", "boardingSequenceNumber", "boardingZone", "confirmationNumber", "transitProvider", "transitStatus",
            "transitStatusReason", "membershipProgramName", "membershipProgramNumber", "membershipProgramStatus", "priorityStatus",
            "securityScreening", "ticketFareClass", "vehicleName", "vehicleNumber", "vehicleType",
        ] { kinds[tag] = .string }
        kinds["flightNumber"] = .number
        kinds["duration"] = .number
        kinds["silenceRequested"] = .boolean
        kinds["internationalDocumentsAreVerified"] = .boolean
        for tag in [
            "performerNames", "artistIDs", "passengerAirlineSSRs", "passengerInformationSSRs", "passengerServiceSSRs",
            "passengerCapabilities", "loungePlaceIDs",
        ] { kinds[tag] = .stringArray }
        for tag in ["passengerName", "totalPrice", "balance", "eventStartDateInfo"] { kinds[tag] = .object }
        for tag in ["seats", "wifiAccess"] { kinds[tag] = .objectArray }
        return kinds
    }()

    static let eventTypes: Set<String> = [
        "PKEventTypeGeneric", "PKEventTypeLivePerformance", "PKEventTypeMovie", "PKEventTypeSports", "PKEventTypeConference",
        "PKEventTypeConvention", "PKEventTypeWorkshop", "PKEventTypeSocialGathering",
    ]

    /// Every `semantics` object of the pass with its JSON path: the top-level one first, then the fields' ones.
    var semanticsObjects: [(path: String, tags: JSONObject)] {
        var found: [(String, JSONObject)] = []
        if let top = pass["semantics"]?.objectValue { found.append(("semantics", top)) }
        if let style, let fields = pass[style]?.objectValue {
            for arrayName in PassJSONValidator.fieldArrays {
                for (index, field) in (fields[arrayName]?.arrayValue ?? []).enumerated() {
                    if let tags = field["semantics"]?.objectValue { found.append(("\(style).\(arrayName)[\(index)].semantics", tags)) }
                }
            }
        }
        return found
    }

    /// The value of a tag, from the top-level semantics or else from a field's.
    func tag(_ name: String) -> JSONValue? {
        for (_, tags) in semanticsObjects { if let value = tags[name] { return value } }
        return nil
    }

    /// A tag with content: a non-empty string, array or object, or any number or boolean.
    func hasTag(_ name: String) -> Bool {
        switch tag(name) {
        case .string(let text)?: !text.trimmingSpaces.isEmpty
        case .array(let array)?: !array.isEmpty
        case .object(let object)?: !object.members.isEmpty
        case .number?, .bool?: true
        case .null?, nil: false
        }
    }

    mutating func semantics() {
        semanticTypes()
        if isPosterEventTicket {
            var required = Self.posterRequiredTags
            switch tag("eventType")?.stringValue {
            case "PKEventTypeSports"?: required += Self.posterSportsTags
            case "PKEventTypeLivePerformance"?: required += Self.posterLivePerformanceTags
            default: break
            }
            for name in required where !hasTag(name) {
                error(
                    "poster-semantics-missing", "semantics.\(name)",
                    "a poster event ticket needs the semantic tag \(name); without it Wallet shows the classic event ticket",
                    fix: "add \"\(name)\" to \"semantics\"\(name == "performerNames" ? " (an array of names)" : "")")
            }
            if !hasTag("eventStartDate") {
                warning(
                    "poster-start-date-missing", "semantics.eventStartDate",
                    "the poster shows no date: Apple recommends the semantic tag eventStartDate",
                    fix: "add \"eventStartDate\": \"2026-07-04T20:00:00+02:00\" to \"semantics\"")
            }
            if !pass.contains("nfc") {
                warning(
                    "poster-nfc-missing", "nfc",
                    "Apple's Pass Builder requires nfc on a poster event ticket, and Apple says poster tickets do not suit QR or barcode entry",
                    fix: "add an nfc dictionary (needs Apple's NFC certificate), or drop posterEventTicket for barcode entry")
            }
        }
        if isSemanticBoardingPass {
            for (name, aliases) in Self.boardingRequiredTags where !([name] + aliases).contains(where: hasTag) {
                error(
                    "boarding-semantics-missing", "semantics.\(name)",
                    "a semantic boarding pass needs the semantic tag \(name); without it Wallet shows the classic boarding pass",
                    fix: "add \"\(name)\" to \"semantics\"")
            }
        }
    }

    private mutating func semanticTypes() {
        for (base, tags) in semanticsObjects {
            for member in tags {
                let path = "\(base).\(member.key)"
                let value = member.value
                guard let kind = Self.tagKinds[member.key], !(isTemplate && isWholePlaceholder(value)) else { continue }
                let problem: String?
                switch kind {
                case .string: problem = value.stringValue == nil ? "must be a string, not \(value.typeName)" : nil
                case .number: problem = value.numberValue == nil ? "must be a number, not \(value.typeName)" : nil
                case .boolean: problem = value.boolValue == nil ? "must be true or false, not \(value.typeName)" : nil
                case .date:
                    if let text = value.stringValue {
                        problem = W3CDate.parse(text) == nil ? "\"\(text)\" is not a W3C date-time with a time zone" : nil
                    } else {
                        problem = "must be a date string, not \(value.typeName)"
                    }
                case .location:
                    let object = value.objectValue
                    let coordinates = ["latitude", "longitude"].allSatisfy { key in
                        object?[key].map { $0.numberValue != nil || (isTemplate && isWholePlaceholder($0)) } ?? false
                    }
                    problem = coordinates ? nil : "must be an object with numeric latitude and longitude"
                case .stringArray:
                    let ok = value.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false
                    problem = ok ? nil : "must be an array of strings"
                case .object: problem = value.objectValue == nil ? "must be an object, not \(value.typeName)" : nil
                case .objectArray:
                    let ok = value.arrayValue?.allSatisfy { $0.objectValue != nil } ?? false
                    problem = ok ? nil : "must be an array of objects"
                }
                if let problem {
                    error("semantics-type", path, "the semantic tag \(member.key) \(problem)", fix: Self.tagFix(member.key, kind))
                    continue
                }
                checkFormat(member.key, value, path: path)
            }
        }
        if let start = tag("eventStartDate")?.stringValue.flatMap(W3CDate.parse),
            let end = tag("eventEndDate")?.stringValue.flatMap(W3CDate.parse),
            end < start
        {
            warning(
                "semantics-date-order", "semantics.eventEndDate", "eventEndDate is before eventStartDate",
                fix: "swap them, or correct the end date")
        }
    }

    private mutating func checkFormat(_ name: String, _ value: JSONValue, path: String) {
        guard let text = value.stringValue else { return }
        switch name {
        case "eventType" where !Self.eventTypes.contains(text):
            warning(
                "semantics-enum", path, "\"\(text)\" is not an event type Wallet knows",
                fix: "use one of \(Self.eventTypes.sorted().joined(separator: ", "))")
        case "departureAirportCode" where text.count != 3 || !text.allSatisfy({ $0.isASCII && $0.isUppercase }),
            "destinationAirportCode" where text.count != 3 || !text.allSatisfy({ $0.isASCII && $0.isUppercase }):
            warning("semantics-format", path, "\"\(text)\" is not a three-letter IATA airport code", fix: "write e.g. \"MUC\"")
        case "airlineCode" where !(2...3).contains(text.count) || !text.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }):
            warning(
                "semantics-format", path, "\"\(text)\" is not an IATA airline code",
                fix: "write the two-character code, e.g. \"LH\" (flightNumber holds the digits)")
        default: break
        }
    }

    private static func tagFix(_ name: String, _ kind: TagKind) -> String {
        switch kind {
        case .string: "write the value in double quotes"
        case .number: "write the number without quotes"
        case .boolean: "write true or false"
        case .date: "write e.g. 2026-07-04T20:00:00+02:00"
        case .location: "write {\"latitude\": 48.35, \"longitude\": 11.78}"
        case .stringArray: "write [\"…\", \"…\"]"
        case .object: name == "passengerName" ? "write {\"givenName\": \"…\", \"familyName\": \"…\"}" : "write { … }"
        case .objectArray: "write [{ … }]"
        }
    }
}
