/// Rules on colors (`rgb(r, g, b)`) and dates (W3C, with a time zone).
extension JSONRules {
    /// `rgb(r, g, b)`, each part 0–255 (spaces and tabs around the parts allowed). Read byte by byte: every pass of
    /// a batch has several colors.
    static func parseColor(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard end - start >= 5, bytes[start..<start + 4].elementsEqual("rgb(".utf8), bytes[end - 1] == UInt8(ascii: ")") else {
            return false
        }
        let parts = bytes[start + 4..<end - 1].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return false }
        return parts.allSatisfy { part in
            let digits = part.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
            return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }
    }

    mutating func colors() {
        for key in ["backgroundColor", "foregroundColor", "labelColor", "stripColor", "footerBackgroundColor"] {
            guard let value = pass[key], !(isTemplate && isWholePlaceholder(value)), let text = value.stringValue else { continue }
            if !Self.parseColor(text) {
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
