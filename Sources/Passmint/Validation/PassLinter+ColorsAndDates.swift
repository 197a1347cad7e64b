/// Rules on colors (`rgb(r, g, b)`) and dates (W3C, with a time zone).
extension JSONRules {
    mutating func colors() {
        for key in ["backgroundColor", "foregroundColor", "labelColor", "stripColor", "footerBackgroundColor"] {
            guard let value = pass[key], !(isTemplate && isWholePlaceholder(value)), let text = value.stringValue else { continue }
            if WalletColor(text) == nil {
                error(
                    "color-format", key, "\"\(text)\" is not a color Wallet reads",
                    fix: "write rgb(r, g, b) with each part 0–255, e.g. rgb(23, 187, 82)")
            }
        }
    }

    mutating func checkDate(_ value: JSONValue?, path: String) {
        guard let value, !(isTemplate && isWholePlaceholder(value)), let text = value.stringValue else { return }
        if W3CDate.parse(text) == nil {
            error(
                "date-format", path, "\"\(text)\" is not a W3C date-time with a time zone",
                fix: "write e.g. 2026-12-24T19:30:00+01:00 or 2026-12-24T18:30:00Z")
        }
    }

    mutating func dates() {
        checkDate(pass["expirationDate"], path: "expirationDate")
        checkDate(pass["relevantDate"], path: "relevantDate")
        for (index, entry) in (pass["relevantDates"]?.arrayValue ?? []).enumerated() {
            let path = "relevantDates[\(index)]"
            guard let object = entry.objectValue else {
                error(
                    "key-type", path, "a relevantDates entry must be an object",
                    fix: "write { \"date\": … } or { \"startDate\": …, \"endDate\": … }")
                continue
            }
            for key in ["date", "startDate", "endDate", "relevantDate"] { checkDate(object[key], path: "\(path).\(key)") }
            if object["startDate"] != nil && object["endDate"] == nil {
                error("relevant-date-interval", "\(path).endDate", "startDate needs an endDate", fix: "add \"endDate\"")
            }
            if object["date"] == nil && object["startDate"] == nil && object["relevantDate"] == nil {
                error(
                    "relevant-date-empty", path, "the entry has neither date nor startDate",
                    fix: "add \"date\" or \"startDate\" + \"endDate\"")
            }
            if let start = object["startDate"]?.stringValue.flatMap(W3CDate.parse),
                let end = object["endDate"]?.stringValue.flatMap(W3CDate.parse),
                end < start
            {
                error(
                    "relevant-date-order", "\(path).endDate", "endDate is before startDate, so the interval is empty",
                    fix: "swap them, or correct the end date")
            }
        }
    }
}
