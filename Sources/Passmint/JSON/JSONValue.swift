/// A JSON value that keeps what a template author wrote: object members stay in their order and
/// numbers keep their literal text, so a template renders to the same bytes every time.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value of `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The JSON type name used in error messages: "string", "number", "object", …
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number kept as its literal text (`1250`, `4.5`, `1e3`).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal as it appears in JSON.
    public let text: String

    /// Creates a number from a JSON literal; the caller guarantees it is valid JSON number syntax.
    init(literal: String) { self.text = literal }

    public init(_ value: Int) { self.text = String(value) }

    public init(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            self.text = String(Int64(value))
        } else {
            self.text = value.description
        }
    }

    public var doubleValue: Double { Double(text) ?? .nan }

    /// The integer value when the literal is an integer.
    public var intValue: Int? { Int(text) }

    public var description: String { text }
}

/// A JSON object whose members keep their order. Setting an existing key replaces its value in place.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var members: [Member]
    /// Member positions by key, kept once the object grows past ``indexedFrom`` members, so that building or reading
    /// an object of n members costs O(n), not O(n²) (a `strings.json` may hold tens of thousands of keys).
    private var positions: [String: Int]?
    private static let indexedFrom = 32

    public init() { self.members = [] }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = []
        for (key, value) in elements { self[key] = value }
    }

    public init(_ members: [Member]) {
        self.members = []
        for member in members { self[member.key] = member.value }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }

    private mutating func indexIfLarge() {
        guard positions == nil, members.count >= Self.indexedFrom else { return }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(members.count * 2)
        for (index, member) in members.enumerated() { positions[member.key] = index }
        self.positions = positions
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let index = position(of: key) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                    positions = nil
                    indexIfLarge()
                }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
                positions?[key] = members.count - 1
                indexIfLarge()
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.members == rhs.members }

    public func hash(into hasher: inout Hasher) { hasher.combine(members) }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
