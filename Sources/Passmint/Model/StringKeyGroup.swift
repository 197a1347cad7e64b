/// A group of optional string keys of `pass.json` (links and contacts) modelled as properties: the table of
/// ``members`` drives decoding, encoding and the list of keys, so each group only declares its properties.
public protocol StringKeyGroup: Codable, Sendable, Hashable {
    init()
    /// Each `pass.json` key with its property, in the order Passmint writes them.
    static var members: [(key: String, property: WritableKeyPath<Self, String?>)] { get }
}

extension StringKeyGroup {
    /// The `pass.json` keys, in the order Passmint writes them.
    public static var keys: [String] { members.map(\.key) }

    /// Whether no key is set.
    public var isEmpty: Bool { values.isEmpty }

    /// The keys that are set, with their values, in ``keys`` order.
    public var values: [(key: String, value: String)] {
        Self.members.compactMap { member in self[keyPath: member.property].map { (member.key, $0) } }
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        for member in Self.members { self[keyPath: member.property] = try c.optional(member.key) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        for (key, value) in values { try c.put(value, key) }
    }
}
