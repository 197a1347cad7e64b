/// The structural rules: required keys, exactly one style, the JSON type of every key Wallet knows, the field
/// dictionaries, barcodes, `nfc`, locations and beacons. Errors mean Wallet would refuse the pass.
/// With `isTemplate`, `passTypeIdentifier` and `teamIdentifier` may be absent (they come from the certificate) and
/// a value that is exactly one `{{placeholder}}` passes any type check.
extension JSONRules {
    /// `formatVersion` and the required strings.
    mutating func requiredKeys() {
        if let version = pass["formatVersion"] {
            if case .number(let number) = version, number.doubleValue != 1 {
                error("format-version", "formatVersion", "formatVersion is \(number) but must be 1", fix: "set \"formatVersion\": 1")
            }
        } else {
            error("required-key-missing", "formatVersion", "the required key formatVersion is missing", fix: "add \"formatVersion\": 1")
        }
        for key in PassJSONValidator.requiredStrings {
            if isTemplate && (key == "passTypeIdentifier" || key == "teamIdentifier") && !pass.contains(key) { continue }
            switch pass[key] {
            case nil:
                error("required-key-missing", key, "the required key \(key) is missing", fix: "add \"\(key)\" with a string value")
            case .string(let value) where value.isEmpty:
                error("required-key-empty", key, "\(key) is empty", fix: "give \(key) a non-empty string")
            default: break
            }
        }
    }

    /// The JSON type of every top-level key Wallet knows; unknown keys are left alone (Wallet ignores them).
    mutating func topLevelTypes() {
        for member in pass.members {
            guard let kind = PassJSONValidator.topLevelKinds[member.key], !kind.accepts(member.value),
                !(isTemplate && isWholePlaceholder(member.value))
            else { continue }
            error(
                "key-type", member.key, "\(member.key) must be \(kind.article), not \(member.value.typeName)",
                fix: kind == .string ? "write the value in double quotes" : "make \(member.key) \(kind.article)")
        }
    }

    /// Exactly one style key, and its field dictionaries (keys unique across the pass, values, types).
    mutating func styleStructure() {
        let styles = PassJSONValidator.styleKeys.filter { pass.contains($0) }
        if styles.isEmpty {
            error(
                "style-missing", "", "pass.json has no style key",
                fix: "add exactly one of \(PassJSONValidator.styleKeys.joined(separator: ", ")) holding the fields")
        } else if styles.count > 1 {
            error(
                "style-multiple", styles[1], "pass.json has \(styles.count) style keys (\(styles.joined(separator: ", ")))",
                fix: "keep exactly one style key")
        }

        // Where each field key was first used: the array's path and the index, made into a path only for a finding.
        var seenKeys: [String: (array: String, index: Int)] = [:]
        for style in styles {
            guard let fields = pass[style]?.objectValue else { continue }
            if style == "boardingPass" {
                if fields["transitType"] == nil {
                    error(
                        "transit-type-missing", "boardingPass.transitType", "a boarding pass needs transitType",
                        fix: "add \"transitType\": \"PKTransitTypeAir\" (or Boat, Bus, Generic, Train)")
                } else if fields["transitType"]?.stringValue == nil {
                    error("key-type", "boardingPass.transitType", "transitType must be a string", fix: "use e.g. \"PKTransitTypeAir\"")
                }
            }
            for arrayName in PassJSONValidator.fieldArrays {
                guard let value = fields[arrayName] else { continue }
                let arrayPath = "\(style).\(arrayName)"
                guard let array = value.arrayValue else {
                    error(
                        "key-type", arrayPath, "\(arrayName) must be an array of field dictionaries, not \(value.typeName)",
                        fix: "write [ { \"key\": …, \"value\": … } ]")
                    continue
                }
                for (index, element) in array.enumerated() {
                    func fieldPath() -> String { "\(arrayPath)[\(index)]" }
                    guard let field = element.objectValue else {
                        error(
                            "key-type", fieldPath(), "a field must be an object, not \(element.typeName)",
                            fix: "write { \"key\": …, \"value\": … }")
                        continue
                    }
                    switch field["key"] {
                    case nil:
                        error("field-key-missing", "\(fieldPath()).key", "the field has no key", fix: "give every field a unique \"key\"")
                    case .string(let key):
                        if let first = seenKeys[key] {
                            error(
                                "field-key-duplicate", "\(fieldPath()).key",
                                "the field key \"\(key)\" is already used at \(first.array)[\(first.index)].key",
                                fix: "field keys must be unique across the whole pass; rename one")
                        } else {
                            seenKeys[key] = (arrayPath, index)
                        }
                    default: break
                    }
                    fieldValueAndTypes(field, path: fieldPath)
                }
            }
        }
    }

    /// A field's value and the JSON types of its keys.
    private mutating func fieldValueAndTypes(_ field: JSONObject, path fieldPath: () -> String) {
        switch field["value"] {
        case nil:
            error(
                "field-value-missing", "\(fieldPath()).value", "the field has no value",
                fix: "add \"value\" (a string, number or date)")
        case .string, .number: break
        case let other?:
            error(
                "field-value-type", "\(fieldPath()).value",
                "a field value must be a string, number or date, not \(other.typeName)",
                fix: "write the value as a string or a number")
        }
        for member in field {
            guard let kind = PassJSONValidator.fieldKinds[member.key], !kind.accepts(member.value),
                !(isTemplate && isWholePlaceholder(member.value))
            else { continue }
            error(
                "key-type", "\(fieldPath()).\(member.key)", "\(member.key) must be \(kind.article), not \(member.value.typeName)",
                fix: kind == .string ? "write the value in double quotes" : "make it \(kind.article)")
        }
    }

    /// Each barcode dictionary has its three strings.
    mutating func barcodeStructure() {
        let barcodeEntries: [(String, JSONValue)] =
            (pass["barcodes"]?.arrayValue ?? []).enumerated().map { ("barcodes[\($0.offset)]", $0.element) }
            + (pass["barcode"].map { [("barcode", $0)] } ?? [])
        for (path, barcode) in barcodeEntries {
            guard let object = barcode.objectValue else {
                error("key-type", path, "a barcode must be an object", fix: "write { \"format\", \"message\", \"messageEncoding\" }")
                continue
            }
            for key in ["format", "message", "messageEncoding"] {
                if object[key] == nil {
                    error(
                        "barcode-key-missing", "\(path).\(key)", "the barcode has no \(key)",
                        fix: key == "messageEncoding" ? "add \"messageEncoding\": \"iso-8859-1\"" : "add \"\(key)\"")
                } else if object[key]?.stringValue == nil {
                    error("key-type", "\(path).\(key)", "\(key) must be a string", fix: "write it in double quotes")
                }
            }
        }
    }

    mutating func nfcStructure() {
        if let nfc = pass["nfc"]?.objectValue {
            for key in ["message", "encryptionPublicKey"] where nfc[key]?.stringValue == nil {
                error("nfc-key-missing", "nfc.\(key)", "nfc.\(key) is missing or not a string", fix: "add \"\(key)\" as a string")
            }
            if let flag = nfc["requiresAuthentication"], flag.boolValue == nil {
                error("key-type", "nfc.requiresAuthentication", "requiresAuthentication must be a boolean", fix: "write true or false")
            }
        }
    }

    /// Coordinates of locations, UUIDs of beacons.
    mutating func placeStructure() {
        for (index, location) in (pass["locations"]?.arrayValue ?? []).enumerated() {
            for key in ["latitude", "longitude"]
            where location[key]?.numberValue == nil && !(isTemplate && location[key].map(isWholePlaceholder) == true) {
                error(
                    "location-coordinate", "locations[\(index)].\(key)", "\(key) is missing or not a number",
                    fix: "give \(key) in degrees as a number")
            }
        }
        for (index, beacon) in (pass["beacons"]?.arrayValue ?? []).enumerated() where beacon["proximityUUID"]?.stringValue == nil {
            error(
                "beacon-uuid", "beacons[\(index)].proximityUUID", "proximityUUID is missing or not a string",
                fix: "give the beacon's UUID as a string")
        }
    }
}
