/// Rules on what devices older than a key show: the top-level `relevantDate` that iOS 17 and earlier read instead of
/// `relevantDates`, and the back fields that stand in for `additionalInfoFields` where Wallet does not show them.
extension JSONRules {
    mutating func olderSystemFallbacks() {
        relevantDateFallback()
        additionalInfoFields()
    }

    /// `relevantDates` is read from iOS 18 on (see <doc:PassFormat>); earlier systems read only the deprecated
    /// top-level `relevantDate`. The fallback is a single date: a single-date entry's `date` (or `relevantDate`, the
    /// spelling implementations report for iOS 18, where Apple's reference says `date`), or an interval's `startDate`.
    mutating func relevantDateFallback() {
        guard let entries = pass["relevantDates"]?.arrayValue, !entries.isEmpty, !pass.contains("relevantDate") else { return }
        let first = entries.first?.objectValue
        let (copy, source): (JSONValue?, String) =
            if let date = first?["date"] { (date, "the date of relevantDates[0]") } else if let date = first?["relevantDate"] {
                (date, "the relevantDate of relevantDates[0]")
            } else { (first?["startDate"], "the startDate of the interval relevantDates[0]") }
        let value = copy?.stringValue.map { "\"\($0)\"" } ?? "the date"
        warning(
            "relevant-date-fallback-missing", "relevantDate",
            "relevantDates is read from iOS 18 on; iOS 17 and earlier read only the top-level relevantDate, which is missing, so the pass never becomes relevant there",
            fix: "add \"relevantDate\": \(value) (\(source)) beside relevantDates")
    }

    /// `additionalInfoFields` (iOS 18) are shown only below poster event tickets (see <doc:PassFormat>). Anywhere else, and on the
    /// classic event ticket a poster ticket falls back to, the back fields must carry the same information.
    mutating func additionalInfoFields() {
        guard let style, let extra = pass[style]?["additionalInfoFields"]?.arrayValue, !extra.isEmpty else { return }
        let path = "\(style).additionalInfoFields"
        guard isPosterEventTicket else {
            let reason =
                style == "eventTicket"
                ? "this event ticket does not ask for the poster layout (preferredStyleSchemes)" : "this pass is a \(style)"
            warning(
                "additional-info-fields-style", path,
                "additionalInfoFields are shown only below poster event tickets (iOS 18+), and \(reason)",
                fix: "copy the fields into backFields (each under its own key)"
                    + (style == "eventTicket" ? ", or add \"preferredStyleSchemes\": [\"posterEventTicket\", \"eventTicket\"]" : ""))
            return
        }
        let backValues = (pass[style]?["backFields"]?.arrayValue ?? []).compactMap { $0["value"] }
        for (index, field) in extra.enumerated() {
            guard let value = field["value"], !backValues.contains(value) else { continue }
            let key = field["key"]?.stringValue ?? "info"
            warning(
                "additional-info-fields-fallback", "\(path)[\(index)]",
                "\"\(key)\" is shown only on the poster layout: before iOS 18, and on the classic event ticket Wallet falls back to, no back field carries its value",
                fix:
                    "copy it into backFields with the same label and value under another key (keys are unique across the pass), e.g. \"\(key)Back\""
            )
        }
    }
}
