extension Order {
    /// An amount of money: `amount` (a JSON number) in `currency` (ISO 4217, e.g. `EUR`).
    public struct CurrencyAmount: Codable, Sendable, Hashable {
        public var amount: Double
        public var currency: String

        public init(amount: Double, currency: String) {
            self.amount = amount
            self.currency = currency
        }
    }

    /// A postal address.
    public struct Address: Codable, Sendable, Hashable {
        public var addressLines: [String]?
        public var locality: String?
        public var subLocality: String?
        public var administrativeArea: String?
        public var subAdministrativeArea: String?
        public var postalCode: String?
        /// ISO 3166-1 alpha-2.
        public var countryCode: String?

        public init(addressLines: [String]? = nil, locality: String? = nil, postalCode: String? = nil, countryCode: String? = nil) {
            self.addressLines = addressLines
            self.locality = locality
            self.postalCode = postalCode
            self.countryCode = countryCode
        }
    }

    /// A geographic location (a store to pick up at).
    public struct Location: Codable, Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The merchant the order was placed with.
    public struct Merchant: Codable, Sendable, Hashable {
        /// The Apple Pay merchant identifier (`merchant.…`).
        public var merchantIdentifier: String
        public var displayName: String
        /// The merchant's web site (https).
        public var url: String
        /// A file of the order package (`logo.png`), without its scale suffix.
        public var logo: String?
        public var businessChatURL: String?
        public var address: Address?

        public init(merchantIdentifier: String, displayName: String, url: String, logo: String? = nil) {
            self.merchantIdentifier = merchantIdentifier
            self.displayName = displayName
            self.url = url
            self.logo = logo
        }
    }

    /// The person who placed the order.
    public struct Customer: Codable, Sendable, Hashable {
        public var givenName: String?
        public var familyName: String?
        public var emailAddress: String?
        public var phoneNumber: String?
        public var organizationName: String?

        public init(givenName: String? = nil, familyName: String? = nil, emailAddress: String? = nil) {
            self.givenName = givenName
            self.familyName = familyName
            self.emailAddress = emailAddress
        }
    }

    /// An App Store app associated with the order.
    public struct Application: Codable, Sendable, Hashable {
        /// The app's App Store identifier (a number).
        public var storeIdentifier: Int
        public var customProductPageIdentifier: String?

        public init(storeIdentifier: Int, customProductPageIdentifier: String? = nil) {
            self.storeIdentifier = storeIdentifier
            self.customProductPageIdentifier = customProductPageIdentifier
        }
    }

    /// The platform that provides the order's data on the merchant's behalf (iOS 17.4).
    public struct OrderProvider: Codable, Sendable, Hashable {
        public var displayName: String
        public var url: String?
        public var logo: String?

        public init(displayName: String, url: String? = nil, logo: String? = nil) {
            self.displayName = displayName
            self.url = url
            self.logo = logo
        }
    }

    /// A barcode shown with the order or a pickup (`qr`, `aztec`, `pdf417`, `code128`).
    public struct Barcode: Codable, Sendable, Hashable {
        public struct Format: OpenStringValue {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let qr: Format = "qr"
            public static let aztec: Format = "aztec"
            public static let pdf417: Format = "pdf417"
            public static let code128: Format = "code128"
            public static let known: [Format] = [.qr, .aztec, .pdf417, .code128]
        }

        public var format: Format
        public var message: String
        /// IANA charset, e.g. `iso-8859-1`.
        public var messageEncoding: String?
        public var altText: String?

        public init(format: Format, message: String, messageEncoding: String? = "iso-8859-1", altText: String? = nil) {
            self.format = format
            self.message = message
            self.messageEncoding = messageEncoding
            self.altText = altText
        }
    }
}
