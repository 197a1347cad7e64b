/// Apple's web service protocol (v1) for passes and for orders, written once for both of its sides: the service's
/// routes (`passmint serve`) answer by it and `passmint check-service` checks a service against it. Everything here
/// is the protocol's, nothing Passmint's own (its tags, its limits): if the two sides disagree, one is wrong.
public enum WalletWebService {
    /// The protocol version, the path segment after the `webServiceURL`: `{webServiceURL}/v1/…`.
    public static let version = "v1"

    /// The fewest characters of an `authenticationToken` Wallet accepts.
    public static let minimumTokenLength = 16

    /// Which of the two web services: passes (`pass.json`) or orders (`order.json`).
    public enum Kind: String, Sendable, CaseIterable {
        case pass, order

        /// Order type identifiers begin with `order.`: requests naming such a type are the order web service's, on the
        /// paths the pass web service shares with it.
        public init(typeIdentifier: some StringProtocol) { self = typeIdentifier.hasPrefix("order.") ? .order : .pass }

        /// The `Authorization` scheme a device sends the document's token in.
        public var authorizationScheme: String {
            switch self {
            case .pass: "ApplePass"
            case .order: "AppleOrder"
            }
        }

        /// The schemes a service accepts: passes also `AndroidPass` (the Android apps that read passes send it).
        var acceptedSchemes: [String] {
            switch self {
            case .pass: ["ApplePass", "AndroidPass"]
            case .order: ["AppleOrder"]
            }
        }

        /// `ApplePass <token>` or `AppleOrder <token>`.
        public func authorization(token: String) -> String { authorizationScheme + " " + token }

        /// The token of an `Authorization` header in one of ``acceptedSchemes``; nil for none, another scheme or an
        /// empty token.
        public func presentedToken(_ header: String?) -> Substring? {
            guard let header else { return nil }
            for scheme in acceptedSchemes where header.hasPrefix(scheme + " ") {
                var token = Substring(header).dropFirst(scheme.count + 1)
                while token.first == " " || token.first == "\t" { token = token.dropFirst() }
                while token.last == " " || token.last == "\t" { token = token.dropLast() }
                return token.isEmpty ? nil : token
            }
            return nil
        }

        /// The query parameter of the poll carrying the tag a previous poll returned.
        public var sinceParameter: String {
            switch self {
            case .pass: "passesUpdatedSince"
            case .order: "ordersModifiedSince"
            }
        }

        /// The `Content-Type` of the latest version.
        public var mimeType: String {
            switch self {
            case .pass: BuiltPass.mimeType
            case .order: BuiltOrder.mimeType
            }
        }

        /// The document's identifier, as the service's JSON names it.
        public var identifierName: String {
            switch self {
            case .pass: "serialNumber"
            case .order: "orderIdentifier"
            }
        }

        /// The type identifier, as the document names it.
        public var typeIdentifierName: String {
            switch self {
            case .pass: "passTypeIdentifier"
            case .order: "orderTypeIdentifier"
            }
        }
    }

    /// The statuses the protocol gives each answer.
    public enum Status {
        /// Register: the registration was made.
        public static let registered = 201
        /// Register: the device was already registered for the document.
        public static let alreadyRegistered = 200
        /// A document's token is missing or wrong (register, unregister, latest version).
        public static let unauthorized = 401
        /// Poll: documents changed (with a ``UpdatedList`` body).
        public static let updated = 200
        /// Poll: nothing changed since the tag (or the device has no registrations), no body.
        public static let noChanges = 204
        /// Latest version: the document, with `Last-Modified`.
        public static let latest = 200
        /// Latest version: not changed since `If-Modified-Since`, no body.
        public static let notModified = 304
        /// Unregister: the registration is gone.
        public static let unregistered = 200
        /// Log: the messages were received.
        public static let logged = 200
        /// Personalize: the signature of the personalization token.
        public static let personalized = 200
    }
}
