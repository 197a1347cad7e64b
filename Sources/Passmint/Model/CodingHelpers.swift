/// A coding key for any string, used to keep keys the model does not know.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { self.stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where K == AnyCodingKey {
    func optional<T: Decodable>(_ key: String) throws -> T? { try decodeIfPresent(T.self, forKey: AnyCodingKey(key)) }
    func required<T: Decodable>(_ key: String) throws -> T { try decode(T.self, forKey: AnyCodingKey(key)) }

    /// Every member whose key is not in `known`, kept as it is.
    func unknownMembers(known: Set<String>) throws -> JSONObject {
        var object = JSONObject()
        for key in allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !known.contains(key.stringValue) {
            object[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return object
    }
}

extension KeyedEncodingContainer where K == AnyCodingKey {
    mutating func put<T: Encodable>(_ value: T?, _ key: String) throws {
        if let value { try encode(value, forKey: AnyCodingKey(key)) }
    }

    mutating func put(unknown members: JSONObject) throws {
        for member in members { try encode(member.value, forKey: AnyCodingKey(member.key)) }
    }
}
