extension PassTemplate {
    /// The placeholders a card shows: in its fields, logo text and barcodes, and in the `pass.strings` texts they use.
    /// An empty value there is a blank on the card (a batch warns of it).
    public var shownPlaceholders: [String] {
        guard let object = passJSON.objectValue else { return [] }
        var shown: JSONObject = [:]
        for key in PassJSONValidator.styleKeys + ["logoText", "barcodes", "barcode", "description", "organizationName"] {
            if let value = object[key] { shown[key] = value }
        }
        var names = Placeholders.names(in: .object(shown))
        for name in dynamicStrings.flatMap(\.placeholders) where !names.contains(name) { names.append(name) }
        return names
    }
}
