import Foundation
import Passmint

/// Where a web page's merchant validation may go: Apple's Apple Pay gateways and nowhere else. The validation URL
/// comes from the browser (`onvalidatemerchant`'s `validationURL`), so the service, which presents its Merchant
/// Identity certificate there, would otherwise be a server-side request forgery: any host, port or path a page names.
/// A URL passes only when it is `https`, names one of Apple's hosts exactly (no user, no port but 443, no IP address,
/// no percent-encoding, no trailing dot), and its path is under `/paymentservices/` in plain letters (no `..`, no
/// query or fragment).
enum ApplePayGateway {
    /// Apple's Apple Pay gateway hosts: production (global and China), their pods, and the sandbox's.
    static let hosts: Set<String> = {
        var hosts: Set<String> = [
            "apple-pay-gateway.apple.com", "cn-apple-pay-gateway.apple.com",
            "apple-pay-gateway-cert.apple.com", "cn-apple-pay-gateway-cert.apple.com",
        ]
        for pod in 1...5 {
            hosts.insert("apple-pay-gateway-nc-pod\(pod).apple.com")
            hosts.insert("apple-pay-gateway-pr-pod\(pod).apple.com")
        }
        for pod in 1...3 {
            hosts.insert("cn-apple-pay-gateway-sh-pod\(pod).apple.com")
            hosts.insert("cn-apple-pay-gateway-tj-pod\(pod).apple.com")
        }
        return hosts
    }()

    /// The characters a validation URL may hold: an Apple URL has no others.
    private static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._/:")

    /// The URL when it is one of Apple's gateways'; otherwise a 400 saying why.
    static func check(_ text: String) throws(ServiceFailure) -> URL {
        func refuse(_ why: String) -> ServiceFailure {
            .badRequest(
                "validationURL \"\(MessageText.cut(text, limit: 120))\" is refused: \(why). Give the validationURL the page's onvalidatemerchant event received",
                code: "invalid-validation-url")
        }
        guard text.allSatisfy({ allowed.contains($0) }) else {
            throw refuse("it holds characters no Apple Pay gateway URL has (percent-encoding, user info, a query, spaces)")
        }
        guard let components = URLComponents(string: text), let url = components.url else { throw refuse("it is not a URL") }
        guard components.scheme == "https" else { throw refuse("only https URLs of Apple's Apple Pay gateways are called") }
        guard components.user == nil, components.password == nil else { throw refuse("it carries user info") }
        guard let host = components.host, hosts.contains(host) else {
            throw refuse("its host is not one of Apple's Apple Pay gateways (apple-pay-gateway.apple.com and its listed pods)")
        }
        guard components.port == nil || components.port == 443 else { throw refuse("its port is not 443") }
        let path = components.path
        guard path.hasPrefix("/paymentservices/"), path.count > "/paymentservices/".count,
            !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else {
            throw refuse("its path is not under /paymentservices/")
        }
        guard components.query == nil, components.fragment == nil else { throw refuse("it carries a query or fragment") }
        return url
    }
}
