/// A barcode dictionary.
public struct Barcode: Codable, Sendable, Hashable {
    public enum Format: String, Codable, Sendable, CaseIterable {
        case qr = "PKBarcodeFormatQR"
        case pdf417 = "PKBarcodeFormatPDF417"
        case aztec = "PKBarcodeFormatAztec"
        case code128 = "PKBarcodeFormatCode128"
        // iOS 27: always follow these with a classic format.
        case code39 = "PKBarcodeFormatCode39"
        case codabar = "PKBarcodeFormatCodabar"
        case ean13 = "PKBarcodeFormatEAN13"
        case i2of5 = "PKBarcodeFormatI2of5"

        /// Formats every iOS version since 9 renders.
        public var isClassic: Bool { [.qr, .pdf417, .aztec, .code128].contains(self) }
    }

    public var format: Format
    public var message: String
    /// IANA charset, normally `iso-8859-1`.
    public var messageEncoding: String
    public var altText: String?

    public init(format: Format, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil) {
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
    }
}

/// A location where the pass is relevant.
public struct Location: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var relevantText: String?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, relevantText: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.relevantText = relevantText
    }
}

/// An iBeacon near which the pass is relevant.
public struct Beacon: Codable, Sendable, Hashable {
    public var proximityUUID: String
    public var major: UInt16?
    public var minor: UInt16?
    public var relevantText: String?
    public var name: String?

    public init(proximityUUID: String, major: UInt16? = nil, minor: UInt16? = nil, relevantText: String? = nil) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.relevantText = relevantText
    }
}

/// An entry of `relevantDates` (iOS 18): a single `date`, or a `startDate`–`endDate` interval.
public struct RelevantDate: Codable, Sendable, Hashable {
    public var date: String?
    public var startDate: String?
    public var endDate: String?
    /// The iOS 18 spelling of the single date.
    public var relevantDate: String?

    public init(date: String? = nil, startDate: String? = nil, endDate: String? = nil) {
        self.date = date
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// The encrypted NFC payload for Apple Pay (VAS) terminals.
public struct NFC: Codable, Sendable, Hashable {
    /// At most 64 bytes.
    public var message: String
    /// Base64 DER SubjectPublicKeyInfo of an EC P-256 key.
    public var encryptionPublicKey: String
    public var requiresAuthentication: Bool?

    public init(message: String, encryptionPublicKey: String, requiresAuthentication: Bool? = nil) {
        self.message = message
        self.encryptionPublicKey = encryptionPublicKey
        self.requiresAuthentication = requiresAuthentication
    }
}

extension Pass {
    /// The values of `preferredStyleSchemes`. Wallet uses the first scheme the pass meets and otherwise the pass's
    /// classic style, so list the enhanced scheme first and its classic one after it:
    /// `pass.preferredStyleSchemes = [Pass.StyleScheme.posterEventTicket, .eventTicket].map(\.rawValue)`.
    public enum StyleScheme: String, Sendable, CaseIterable {
        /// iOS 18+: the poster layout of an event ticket (needs the required semantic tags and `artwork` images).
        case posterEventTicket
        /// The classic event ticket.
        case eventTicket
        /// iOS 26+: the semantic layout of an airline boarding pass (needs the required semantic tags).
        case semanticBoardingPass
        /// The classic boarding pass.
        case boardingPass

        /// The pass style the scheme belongs to.
        public var style: Style { self == .posterEventTicket || self == .eventTicket ? .eventTicket : .boardingPass }
    }
}
