/// A request or response body of Apple's web service that does not have the expected shape.
public struct WalletBodyError: CodedError, Equatable {
    public var code: PassmintError.Code { .invalidData }
    /// What is wrong, naming the key.
    public let message: String
}

/// The body of a registration: `{"pushToken": "<hex token>"}`.
public struct PushTokenBody: Sendable, Equatable {
    public static let shape = #"{"pushToken": "<hex token>"}"#
    public var pushToken: String

    public init(pushToken: String) { self.pushToken = pushToken }

    public init(json: JSONObject) throws(WalletBodyError) {
        guard let token = json["pushToken"]?.stringValue else {
            throw WalletBodyError(message: "the body must be \(Self.shape)")
        }
        pushToken = token
    }

    public var json: JSONValue { ["pushToken": .string(pushToken)] }
}

/// The body of a device's log report: `{"logs": ["…", …]}`.
public struct LogBody: Sendable, Equatable {
    public static let shape = #"{"logs": ["…"]}"#
    public var logs: [String]

    public init(logs: [String]) { self.logs = logs }

    /// The strings of `logs` (entries of another type are left out); an error when `logs` is not an array.
    public init(json: JSONObject) throws(WalletBodyError) {
        guard let logs = json["logs"]?.arrayValue else { throw WalletBodyError(message: "the body must be \(Self.shape)") }
        self.logs = logs.compactMap(\.stringValue)
    }

    public var json: JSONValue { ["logs": .array(logs.map(JSONValue.string))] }
}

/// The answer of a poll that found changes: `{"serialNumbers": [...], "lastUpdated": "<tag>"}` for passes,
/// `{"orderIdentifiers": [...], "lastModified": "<tag>"}` for orders. The tag is an opaque string: a JSON number there
/// breaks Wallet's updates.
public struct UpdatedList: Sendable, Equatable {
    public var kind: WalletWebService.Kind
    public var identifiers: [String]
    public var tag: String

    public init(kind: WalletWebService.Kind, identifiers: [String], tag: String) {
        self.kind = kind
        self.identifiers = identifiers
        self.tag = tag
    }

    /// The key of the identifiers.
    public static func identifiersKey(_ kind: WalletWebService.Kind) -> String {
        kind == .order ? "orderIdentifiers" : "serialNumbers"
    }

    /// The key of the tag.
    public static func tagKey(_ kind: WalletWebService.Kind) -> String { kind == .order ? "lastModified" : "lastUpdated" }

    /// Reads a body strictly: an object, its identifiers an array of strings, its tag a string.
    public init(kind: WalletWebService.Kind, json: JSONValue) throws(WalletBodyError) {
        let listKey = Self.identifiersKey(kind)
        let tagKey = Self.tagKey(kind)
        guard let object = json.objectValue else { throw WalletBodyError(message: "the body is a JSON \(json.typeName), not an object") }
        guard let list = object[listKey]?.arrayValue else {
            throw WalletBodyError(
                message: "\"\(listKey)\" is \(object[listKey].map { "a JSON \($0.typeName)" } ?? "missing"), not an array")
        }
        var identifiers: [String] = []
        for entry in list {
            guard let identifier = entry.stringValue else {
                throw WalletBodyError(message: "\"\(listKey)\" holds a JSON \(entry.typeName)")
            }
            identifiers.append(identifier)
        }
        guard let tag = object[tagKey]?.stringValue else {
            throw WalletBodyError(message: "\"\(tagKey)\" is \(object[tagKey].map { "a JSON \($0.typeName)" } ?? "missing"), not a string")
        }
        self.init(kind: kind, identifiers: identifiers, tag: tag)
    }

    /// The compact JSON: written directly, as devices poll often.
    public var bytes: [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(48 + identifiers.reduce(0) { $0 + $1.utf8.count + 3 } + tag.utf8.count)
        body += #"{""#.utf8
        body += Self.identifiersKey(kind).utf8
        body += #"":["#.utf8
        for (index, identifier) in identifiers.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            Self.append(identifier, to: &body)
        }
        body += #"],""#.utf8
        body += Self.tagKey(kind).utf8
        body += #"":"#.utf8
        Self.append(tag, to: &body)
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// A JSON string: the text between quotes when nothing in it needs escaping, else as ``JSONWriter`` writes it.
    private static func append(_ text: String, to body: inout [UInt8]) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            body.append(UInt8(ascii: "\""))
            body += text.utf8
            body.append(UInt8(ascii: "\""))
        } else {
            body += JSONWriter.data(.string(text), style: .compact)
        }
    }
}
