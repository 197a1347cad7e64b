import Foundation

/// An IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`; an address alone is a network of one),
/// e.g. the TLS terminators or load balancers whose `X-Forwarded-For` the service believes (`--trusted-proxy`).
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The network's address: 4 bytes (IPv4) or 16 (IPv6).
    let bytes: [UInt8]
    /// How many leading bits an address must share with ``bytes``.
    let prefixLength: Int

    /// Parses `address` or `address/length`; nil when it is neither.
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let bytes = Self.address(String(parts[0])) else { return nil }
        let length = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
        guard let length, (0...bytes.count * 8).contains(length) else { return nil }
        self.bytes = bytes
        prefixLength = length
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/\(prefixLength)"
    }

    /// Whether the address (as text) lies in this network. An IPv4 address written as IPv6 (`::ffff:10.0.0.1`)
    /// counts as the IPv4 one.
    public func contains(_ address: String) -> Bool {
        guard let other = Self.address(address), other.count == bytes.count else { return false }
        var left = prefixLength
        for (mine, theirs) in zip(bytes, other) where left > 0 {
            let bits = min(8, left)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            left -= bits
        }
        return true
    }

    /// The bytes of an IPv4 or IPv6 address (an IPv4-mapped IPv6 address as its 4 IPv4 bytes); nil for anything else.
    static func address(_ text: String) -> [UInt8]? {
        var four = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &four) == 1 { return four }
        var sixteen = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, text, &sixteen) == 1 else { return nil }
        if sixteen[0..<10].allSatisfy({ $0 == 0 }) && sixteen[10] == 0xFF && sixteen[11] == 0xFF { return Array(sixteen[12...]) }
        return sixteen
    }

    /// Parses a comma-separated list (`10.0.0.0/8, 192.0.2.7`); a failure names the first entry that is not a network.
    public static func list(_ text: String) -> Result<[IPNetwork], ConfigurationError> {
        var networks: [IPNetwork] = []
        for entry in text.split(separator: ",") {
            guard let network = IPNetwork(String(entry)) else {
                return .failure(ConfigurationError("\"\(entry.trimmingCharacters(in: .whitespaces))\" is not an IP address or network"))
            }
            networks.append(network)
        }
        return .success(networks)
    }
}
