/// The endpoints of Apple's web service (``WalletWebService``): the method and the path template after
/// `{webServiceURL}/v1/`, parameters written `:name` (as the service's router reads them).
public enum WalletRoute: String, Sendable, CaseIterable {
    /// `POST devices/:device/registrations/:type/:serial`, body ``PushTokenBody``.
    case register
    /// `GET devices/:device/registrations/:type[?passesUpdatedSince=<tag>]` (orders: `ordersModifiedSince`).
    case poll
    /// `DELETE devices/:device/registrations/:type/:serial`.
    case unregister
    /// `GET passes/:type/:serial` (orders: `orders/:type/:serial`), conditional with `If-Modified-Since`.
    case latest
    /// `POST passes/:type/:serial/personalize` (passes only).
    case personalize
    /// `POST log`, body ``LogBody``.
    case log

    /// The names of the path parameters.
    public enum Parameter {
        /// The device library identifier.
        public static let device = "device"
        /// The pass or order type identifier.
        public static let type = "type"
        /// The serial number or order identifier.
        public static let serial = "serial"
    }

    public var method: String {
        switch self {
        case .register, .personalize, .log: "POST"
        case .poll, .latest: "GET"
        case .unregister: "DELETE"
        }
    }

    /// The path template after `{webServiceURL}/v1/` for documents of `kind`.
    public func template(_ kind: WalletWebService.Kind) -> String {
        switch self {
        case .register, .unregister: "devices/:device/registrations/:type/:serial"
        case .poll: "devices/:device/registrations/:type"
        case .latest: kind == .order ? "orders/:type/:serial" : "passes/:type/:serial"
        case .personalize: "passes/:type/:serial/personalize"
        case .log: "log"
        }
    }

    /// The path after `{webServiceURL}/v1/` with each parameter's value percent-encoded as a device does.
    public func path(_ kind: WalletWebService.Kind, device: String = "", type: String = "", serial: String = "") -> String {
        let values = [Parameter.device: device, Parameter.type: type, Parameter.serial: serial]
        return template(kind).split(separator: "/").map { segment in
            guard segment.first == ":" else { return String(segment) }
            return Self.percentEncoded(values[String(segment.dropFirst())] ?? "")
        }.joined(separator: "/")
    }

    /// The values of the template's parameters, in its order, when `parts` (the path after `v1/` split at `/`) has
    /// this route's shape for `kind`; nil otherwise. Values are not decoded.
    public func parameters(_ kind: WalletWebService.Kind, in parts: [Substring]) -> [Substring]? {
        guard let template = (kind == .order ? Self.orderSegments : Self.passSegments)[self] else { return nil }
        guard parts.count == template.count else { return nil }
        var values: [Substring] = []
        for (segment, part) in zip(template, parts) {
            if segment.first == ":" {
                values.append(part)
            } else if segment != part {
                return nil
            }
        }
        return values
    }

    /// Each route's template split at `/` once (devices call ``parameters(_:in:)`` on every poll).
    private static let passSegments = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.template(.pass).split(separator: "/")) })
    private static let orderSegments = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.template(.order).split(separator: "/")) })

    /// `text` with every byte but the unreserved characters of RFC 3986 (letters, digits, `-._~`) percent-encoded:
    /// safe in a path segment and in a query value (`+`, `:`, `&`, `=` and spaces encoded).
    public static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                encoded += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return encoded
    }
}
