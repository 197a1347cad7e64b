extension Order {
    /// How (part of) an order reaches the customer: shipped to them, or picked up by them.
    public enum Fulfillment: Codable, Sendable, Hashable {
        case shipping(ShippingFulfillment)
        case pickup(PickupFulfillment)

        /// Tells the fulfillments of an order apart.
        public var identifier: String {
            switch self {
            case .shipping(let shipping): shipping.fulfillmentIdentifier
            case .pickup(let pickup): pickup.fulfillmentIdentifier
            }
        }

        /// The fulfillment's `status`.
        public var status: String {
            switch self {
            case .shipping(let shipping): shipping.status.rawValue
            case .pickup(let pickup): pickup.status.rawValue
            }
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            let type: String = try c.required("fulfillmentType")
            switch type {
            case "shipping": self = .shipping(try ShippingFulfillment(from: decoder))
            case "pickup": self = .pickup(try PickupFulfillment(from: decoder))
            default:
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: c.codingPath + [AnyCodingKey("fulfillmentType")],
                        debugDescription: "\"\(type)\" is not a fulfillment type (shipping or pickup)"))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .shipping(let shipping): try shipping.encode(to: encoder)
            case .pickup(let pickup): try pickup.encode(to: encoder)
            }
        }
    }

    /// A shipment: carrier, tracking, delivery estimate and its own status.
    public struct ShippingFulfillment: Codable, Sendable, Hashable {
        /// Where a shipment is.
        public struct Status: OpenStringValue {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let open: Status = "open"
            public static let processing: Status = "processing"
            public static let onTheWay: Status = "onTheWay"
            public static let shipped: Status = "shipped"
            public static let outForDelivery: Status = "outForDelivery"
            public static let delivered: Status = "delivered"
            public static let issue: Status = "issue"
            public static let cancelled: Status = "cancelled"
            public static let known: [Status] = [.open, .processing, .onTheWay, .shipped, .outForDelivery, .delivered, .issue, .cancelled]
        }

        /// The person a shipment goes to.
        public struct Recipient: Codable, Sendable, Hashable {
            public var displayName: String?
            public var address: Address?
            public var emailAddress: String?
            public var phoneNumber: String?

            public init(displayName: String? = nil, address: Address? = nil) {
                self.displayName = displayName
                self.address = address
            }
        }

        public var fulfillmentType = "shipping"
        public var fulfillmentIdentifier: String
        public var status: Status
        public var statusDescription: String?
        /// `shipping` (a carrier) or `delivery` (the merchant's own).
        public var shippingType: String?
        public var carrier: String?
        public var trackingNumber: String?
        public var trackingURL: String?
        /// RFC 3339.
        public var shippedAt: String?
        /// RFC 3339: the start of the delivery window.
        public var estimatedDeliveryAt: String?
        /// ISO 8601 duration after ``estimatedDeliveryAt``, e.g. `PT4H`.
        public var estimatedDeliveryWindowDuration: String?
        /// RFC 3339.
        public var deliveredAt: String?
        public var recipient: Recipient?
        public var lineItems: [LineItem]?
        public var notes: String?

        public init(fulfillmentIdentifier: String, status: Status) {
            self.fulfillmentIdentifier = fulfillmentIdentifier
            self.status = status
        }
    }

    /// A pickup at a store: where, when (the pickup window), the barcode shown at the counter, its own status.
    public struct PickupFulfillment: Codable, Sendable, Hashable {
        /// Where a pickup is.
        public struct Status: OpenStringValue {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let open: Status = "open"
            public static let processing: Status = "processing"
            public static let readyForPickup: Status = "readyForPickup"
            public static let pickedUp: Status = "pickedUp"
            public static let issue: Status = "issue"
            public static let cancelled: Status = "cancelled"
            public static let known: [Status] = [.open, .processing, .readyForPickup, .pickedUp, .issue, .cancelled]
        }

        public var fulfillmentType = "pickup"
        public var fulfillmentIdentifier: String
        public var status: Status
        public var statusDescription: String?
        /// The store's name.
        public var displayName: String?
        public var address: Address?
        public var location: Location?
        /// RFC 3339: the start of the pickup window.
        public var pickupAt: String?
        /// ISO 8601 duration after ``pickupAt``, e.g. `PT2H`.
        public var pickupWindowDuration: String?
        /// RFC 3339.
        public var pickedUpAt: String?
        public var barcode: Barcode?
        public var instructions: String?
        public var lineItems: [LineItem]?
        public var notes: String?

        public init(fulfillmentIdentifier: String, status: Status) {
            self.fulfillmentIdentifier = fulfillmentIdentifier
            self.status = status
        }
    }
}
