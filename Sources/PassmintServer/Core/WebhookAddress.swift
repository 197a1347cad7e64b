import Foundation

/// Where a webhook may deliver: an https URL (http only when ``WebhookPolicy/allowHTTP``), whose host resolves to
/// public addresses only (unless ``WebhookPolicy/allowPrivate``), so that the service cannot be made to call itself,
/// its database or a cloud metadata endpoint (SSRF). Checked when the webhook is registered and before each delivery
/// (a name may resolve elsewhere later).
enum WebhookAddress {
    /// Loopback, private, shared, link-local, multicast, reserved and documentation ranges; and the IPv6 forms that
    /// carry an IPv4 address or reach a site (IPv4-compatible `::a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64,
    /// Teredo, 6to4 and site-local), which no public receiver needs and which name loopback in disguise.
    static let refused: [IPNetwork] = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        "::/96", "::1/128", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:db8::/32",
        "2002::/16", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    ].compactMap(IPNetwork.init)

    /// Checks `text` is a URL a webhook may use, without resolving it.
    static func parse(_ text: String, policy: WebhookPolicy) throws(ServiceFailure) -> (url: URL, host: String) {
        guard let components = URLComponents(string: text), let url = components.url, let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw .badRequest("\"url\": \(text) is not an absolute URL: give e.g. https://hooks.example.com/passmint") }
        guard components.user == nil, components.password == nil else {
            throw .badRequest("\"url\": \(text) holds a user name or password: put the secret in the webhook's \"secret\" instead")
        }
        switch scheme {
        case "https": break
        case "http" where policy.allowHTTP: break
        case "http":
            throw .badRequest("\"url\": \(text) uses http: give an https URL (http only where the service's operator allows it, for tests)")
        default: throw .badRequest("\"url\": \(text) must be an https URL")
        }
        return (url, host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host)
    }

    /// Checks the URL and resolves its host; refuses a host that resolves to a refused address (unless allowed) or
    /// does not resolve. Returns the URL, its host and the address checked: a delivery connects to that address, not
    /// to whatever the name resolves to a moment later (DNS rebinding).
    static func check(_ text: String, policy: WebhookPolicy) async throws(ServiceFailure) -> (url: URL, host: String, address: String) {
        let (url, host) = try parse(text, policy: policy)
        let addresses = try await CPUWork.run { () throws(ServiceFailure) in try WebhookAddress.resolve(host) }
        if !policy.allowPrivate, let address = addresses.first(where: { address in refused.contains { $0.contains(address) } }) {
            throw .badRequest(
                """
                "url": \(text) resolves to \(address), a loopback, private or link-local address: webhooks go to public \
                receivers (PASSMINT_WEBHOOKS_ALLOW_PRIVATE=1 allows such receivers, for tests and in-cluster receivers)
                """)
        }
        return (url, host, addresses[0])
    }

    /// The host's addresses as text (getaddrinfo; blocking, so run on ``CPUWork``).
    static func resolve(_ host: String) throws(ServiceFailure) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            throw .badRequest("\"url\": the host \(host) does not resolve (\(String(cString: gai_strerror(status)))): check its name")
        }
        var addresses: [String] = []
        var entry = list
        while let current = entry {
            var text = [CChar](repeating: 0, count: 1025)  // NI_MAXHOST
            if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                addresses.append(String(address.prefix { $0 != "%" }))  // fe80::1%eth0: the zone is not part of the address
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw .badRequest("\"url\": the host \(host) has no address: check its name") }
        return addresses
    }
}
