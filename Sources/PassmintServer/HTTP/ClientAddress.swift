import Foundation
import HTTPTypes

/// The address of the client behind a request, for what the service budgets per client (device logs).
///
/// The connection's peer is the client, unless the peer is one of the configured trusted proxies
/// (``ServerConfiguration/trustedProxies``, `--trusted-proxy`): then the client is the nearest address in the
/// `Forwarded` header's `for=` list (RFC 7239), or else in `X-Forwarded-For`, that is not itself a trusted proxy,
/// read from the right (the entries a proxy appended, not those the client wrote). A header from a peer that is not
/// trusted is ignored, so no client can choose the address it is budgeted by.
enum ClientAddress {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwarded = HTTPField.Name("Forwarded")!

    static func resolve(peer: String?, headers: HTTPFields, trusted: [IPNetwork]) -> String? {
        guard let peer, isTrusted(peer, trusted) else { return peer }
        let chain: [String]
        let standard = headers[values: forwarded]
        if !standard.isEmpty {
            chain = standard.flatMap { $0.split(separator: ",") }.compactMap { element in
                element.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { $0.lowercased().hasPrefix("for=") }.map { String($0.dropFirst(4)) }
            }
        } else {
            chain = headers[values: forwardedFor].flatMap { $0.split(separator: ",") }.map { String($0) }
        }
        for entry in chain.reversed() {
            guard let address = bare(entry) else { return peer }  // a hop the proxies did not write cleanly
            if !isTrusted(address, trusted) { return address }
        }
        return peer
    }

    private static func isTrusted(_ address: String, _ trusted: [IPNetwork]) -> Bool {
        trusted.contains { $0.contains(address) }
    }

    /// The IP address in a list entry: quotes, `[…]` around IPv6 and a port taken off; nil when it is not an address
    /// (`unknown`, an obfuscated name).
    static func bare(_ entry: String) -> String? {
        var text = Substring(entry.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = text[..<colon]  // IPv4 with a port
        }
        let address = String(text)
        return IPNetwork.address(address) == nil ? nil : address
    }
}
