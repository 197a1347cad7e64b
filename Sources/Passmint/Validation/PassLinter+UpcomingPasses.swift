/// Rules on `upcomingPassInformation` (iOS 26): the later events of a poster event ticket that covers several.
///
/// Its entries are events: Apple's entry type has the single value `event`, with event dates, venue links and maps for
/// the event guide, and implementations accept the key only on event tickets that ask for the poster layout. Passmint
/// treats it as a poster event ticket key (see <doc:PassFormat>).
extension JSONRules {
    /// The only entry type Wallet documents.
    static let upcomingPassEntryTypes: Set<String> = ["event"]

    mutating func upcomingPassInformation() {
        guard let entries = pass["upcomingPassInformation"]?.arrayValue else { return }
        var identifiers: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where !(isTemplate && isWholePlaceholder(entry)) {
            let path = "upcomingPassInformation[\(index)]"
            guard let object = entry.objectValue else {
                error(
                    "key-type", path, "an upcoming pass entry must be an object, not \(entry.typeName)",
                    fix: "write {\"type\": \"event\", \"identifier\": \"…\", \"name\": \"…\"}")
                continue
            }
            for key in ["type", "identifier", "name"] {
                guard let value = object[key] else {
                    error(
                        "upcoming-pass-entry", "\(path).\(key)", "the entry has no \(key); Wallet needs type, identifier and name",
                        fix: key == "type" ? "add \"type\": \"event\"" : "add \"\(key)\" with a string value")
                    continue
                }
                if value.stringValue == nil && !(isTemplate && isWholePlaceholder(value)) {
                    error(
                        "upcoming-pass-entry", "\(path).\(key)", "\(key) must be a string, not \(value.typeName)",
                        fix: "write the value in double quotes")
                }
            }
            if let type = object["type"]?.stringValue, !isWholePlaceholder(.string(type)), !Self.upcomingPassEntryTypes.contains(type) {
                error(
                    "upcoming-pass-entry", "\(path).type", "\"\(type)\" is not an upcoming pass type Wallet knows",
                    fix: "write \"type\": \"event\"")
            }
            if let identifier = object["identifier"]?.stringValue, !isWholePlaceholder(.string(identifier)) {
                if let earlier = identifiers[identifier] {
                    error(
                        "upcoming-pass-identifier-duplicate", "\(path).identifier",
                        "\"\(identifier)\" is also the identifier of upcomingPassInformation[\(earlier)]; Wallet tells entries apart by it",
                        fix: "give every entry its own identifier")
                } else {
                    identifiers[identifier] = index
                }
            }
            if let active = object["isActive"], active.boolValue == nil, !(isTemplate && isWholePlaceholder(active)) {
                error(
                    "upcoming-pass-entry", "\(path).isActive", "isActive must be true or false, not \(active.typeName)",
                    fix: "write true or false")
            }
            for key in ["dateInformation", "semantics", "URLs", "images"] {
                if let value = object[key], value.objectValue == nil, !(isTemplate && isWholePlaceholder(value)) {
                    error(
                        "upcoming-pass-entry", "\(path).\(key)", "\(key) must be an object, not \(value.typeName)",
                        fix: "write \"\(key)\": { … }")
                }
            }
            checkDate(object["dateInformation"]?["date"], path: "\(path).dateInformation.date")
        }
    }
}
