/// Lint rules for `order.json` and the files of an order package, with the same kind of findings as for passes
/// (``Diagnostic``: a stable code, the JSON path, the value, and what to do). ``lint(json:files:)`` checks one version
/// of an order; ``lint(json:previous:)`` checks a new version against the one before it (status transitions that
/// cannot happen, `updatedAt` that does not grow).
public enum OrderLinter {
    /// Every finding about an order: `order.json` (required keys, types, allowed values, dates, URLs, identifiers)
    /// and, when `files` are given, the images it names.
    public static func lint(json: JSONObject, files: [PassContents.File]? = nil) -> [Diagnostic] {
        var check = OrderCheck()
        check.order(json)
        if let files { check.files(files, order: json) }
        return check.diagnostics
    }

    /// Findings about `json` as the version after `previous`: an order that is completed or cancelled cannot be open
    /// again, a delivered or picked-up fulfillment cannot go back, `updatedAt` must be later, and the identifiers and
    /// `createdAt` stay.
    public static func lint(json: JSONObject, previous: JSONObject) -> [Diagnostic] {
        var check = OrderCheck()
        check.transition(from: previous, to: json)
        return check.diagnostics
    }

    /// Lints an `.order` package's entries as `verify` judges them: every entry where Wallet reads files
    /// (``PackageEntries``: an unsafe or stray entry is an `order-entry` error), then `order.json` with the images and
    /// translations beside it.
    public static func lint(archive entries: [ZipArchive.Entry]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for entry in entries {
            switch PackageEntries.problem(entry) {
            case .unsafe(let reason)?:
                found.append(
                    Diagnostic(
                        .error, "order-entry", file: MessageText.cut(entry.name), path: "",
                        "the entry \(PackageEntries.describe(entry.name, unsafe: reason)) could be unpacked outside the order's folder",
                        fix: "remove it from the package and sign the order again"))
            case .stray?:
                found.append(
                    Diagnostic(
                        .error, "order-entry", file: MessageText.cut(entry.name), path: "",
                        "the entry \"\(MessageText.cut(entry.name))\" is somewhere Wallet does not read", fix: PackageEntries.strayFix))
            case nil: break
            }
        }
        guard let orderJSON = entries.first(where: { $0.name == "order.json" }) else {
            return found + [
                Diagnostic(
                    .error, "order-json", file: "order.json", path: "", "the package holds no order.json at its root",
                    fix: "zip the contents of the order folder, not the folder itself")
            ]
        }
        let files = entries.filter {
            PackageEntries.problem($0) == nil && !$0.name.hasSuffix("/") && !["order.json", "manifest.json", "signature"].contains($0.name)
        }
        return found + lint(orderJSON: orderJSON.bytes, files: files.map { PassContents.File(path: $0.name, bytes: $0.bytes) })
    }

    /// Reads and lints an `order.json` file's bytes: a syntax error is one finding with its line and column.
    public static func lint(orderJSON bytes: [UInt8], files: [PassContents.File]? = nil) -> [Diagnostic] {
        do {
            guard let object = try JSONParser.value(bytes).objectValue else {
                return [
                    Diagnostic(
                        .error, "order-json", file: "order.json", path: "", "order.json is not a JSON object",
                        fix: "make it one object { … }")
                ]
            }
            return lint(json: object, files: files)
        } catch {
            return [Diagnostic(.error, "order-json", file: "order.json", path: "", "\(error)", fix: "fix the JSON syntax there")]
        }
    }
}

/// The state of one lint run: the findings so far, and helpers that read a key with its expected type.
struct OrderCheck {
    var diagnostics: [Diagnostic] = []

    mutating func error(_ code: String, _ path: String, _ message: String, fix: String) {
        diagnostics.append(Diagnostic(.error, code, file: "order.json", path: path, message, fix: fix))
    }

    mutating func warning(_ code: String, _ path: String, _ message: String, fix: String, file: String = "order.json") {
        diagnostics.append(Diagnostic(.warning, code, file: file, path: path, message, fix: fix))
    }

    /// A value as written in JSON, cut for a message.
    static func shown(_ value: JSONValue) -> String { MessageText.cut(JSONWriter.string(value, style: .compact)) }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The value at `key`, of type `type` (`string`, `number`, `object`, `array`, `boolean`); a finding when it is
    /// missing and `required`, or of another type.
    mutating func value(_ object: JSONObject, _ key: String, at path: String, _ type: String, required: Bool, why: String = "")
        -> JSONValue?
    {
        let keyPath = Self.join(path, key)
        guard let value = object[key] else {
            if required {
                error(
                    "order-required-key", keyPath, "the required key \(key) is missing\(why)",
                    fix: "add \"\(key)\" (\(type)) to \(path.isEmpty ? "order.json" : path)")
            }
            return nil
        }
        let actual: String =
            switch value {
            case .string: "string"
            case .number: "number"
            case .object: "object"
            case .array: "array"
            case .bool: "boolean"
            case .null: "null"
            }
        guard actual == type else {
            error(
                "order-type", keyPath, "\(key) is \(actual) \(Self.shown(value)), Wallet expects a \(type)",
                fix: "write \(key) as a \(type)")
            return nil
        }
        return value
    }

    mutating func string(_ object: JSONObject, _ key: String, at path: String, required: Bool = false, why: String = "") -> String? {
        value(object, key, at: path, "string", required: required, why: why)?.stringValue
    }

    mutating func object(_ object: JSONObject, _ key: String, at path: String, required: Bool = false, why: String = "") -> JSONObject? {
        value(object, key, at: path, "object", required: required, why: why)?.objectValue
    }

    /// The elements of an array of objects, each with its path (`lineItems[2]`); a finding for an element that is not
    /// an object.
    mutating func objects(_ object: JSONObject, _ key: String, at path: String, required: Bool = false) -> [(String, JSONObject)] {
        guard let array = value(object, key, at: path, "array", required: required)?.arrayValue else { return [] }
        var result: [(String, JSONObject)] = []
        for (index, element) in array.enumerated() {
            let elementPath = "\(Self.join(path, key))[\(index)]"
            guard let member = element.objectValue else {
                error(
                    "order-type", elementPath, "\(elementPath) is \(element.typeName), Wallet expects an object",
                    fix: "make it an object { … }")
                continue
            }
            result.append((elementPath, member))
        }
        return result
    }

    /// A finding when `value` is not one of `allowed`.
    mutating func allowed(_ value: String?, _ allowed: [String], at path: String, what: String, severity: Diagnostic.Severity = .error) {
        guard let value, !allowed.contains(value) else { return }
        let message = "\(what) \"\(MessageText.cut(value))\" is not one Wallet knows (\(allowed.joined(separator: ", ")))"
        let fix = "use one of \(allowed.joined(separator: ", ")) (case matters)"
        if severity == .error { error("order-value", path, message, fix: fix) } else { warning("order-value", path, message, fix: fix) }
    }
}
