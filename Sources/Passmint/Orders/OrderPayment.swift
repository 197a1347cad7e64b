extension Order {
    /// What the customer paid: the total, its breakdown and how it was paid. Required by schema version 1 (iOS 16);
    /// optional from schema version 2 (iOS 17).
    public struct Payment: Codable, Sendable, Hashable {
        /// Deprecated by Apple, still read by iOS 16: `pending`, `paid`, `refunded`, …
        public struct Status: OpenStringValue {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let pending: Status = "pending"
            public static let paid: Status = "paid"
            public static let refunded: Status = "refunded"
            public static let known: [Status] = [.pending, .paid, .refunded]
        }

        public var total: CurrencyAmount
        public var status: Status?
        public var summaryItems: [SummaryItem]?
        public var paymentMethods: [PaymentMethod]?
        public var transactions: [Transaction]?

        public init(
            total: CurrencyAmount, status: Status? = nil, summaryItems: [SummaryItem]? = nil, paymentMethods: [PaymentMethod]? = nil
        ) {
            self.total = total
            self.status = status
            self.summaryItems = summaryItems
            self.paymentMethods = paymentMethods
        }
    }

    /// One line of the total's breakdown (subtotal, shipping, tax, discount).
    public struct SummaryItem: Codable, Sendable, Hashable {
        public var label: String
        public var value: CurrencyAmount

        public init(label: String, value: CurrencyAmount) {
            self.label = label
            self.value = value
        }
    }

    /// A way the order was paid, as the customer recognizes it (`Visa •••• 1234`): a string in `payment.paymentMethods`
    /// (as Apple's schema and sample orders write it), an object `{"displayName": …}` in a transaction's
    /// `paymentMethod`. Read from either, and written in the form it was read in (an object when made in code).
    public struct PaymentMethod: Codable, Sendable, Hashable {
        public var displayName: String
        /// Written as a plain string rather than an object.
        public var isString: Bool

        public init(displayName: String, isString: Bool = false) {
            self.displayName = displayName
            self.isString = isString
        }

        private enum CodingKeys: String, CodingKey { case displayName }

        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self.init(displayName: text, isString: true)
            } else {
                self.init(displayName: try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .displayName))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            if isString {
                var container = encoder.singleValueContainer()
                try container.encode(displayName)
            } else {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(displayName, forKey: .displayName)
            }
        }
    }

    /// A payment or refund on the order.
    public struct Transaction: Codable, Sendable, Hashable {
        /// `purchase` or `refund`.
        public struct Kind: OpenStringValue {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let purchase: Kind = "purchase"
            public static let refund: Kind = "refund"
            public static let known: [Kind] = [.purchase, .refund]
        }

        /// Where the transaction is: `pending`, `approved`, `completed`, `cancelled`, `failed` (schema version 2).
        public struct Status: OpenStringValue {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let pending: Status = "pending"
            public static let approved: Status = "approved"
            public static let completed: Status = "completed"
            public static let cancelled: Status = "cancelled"
            public static let failed: Status = "failed"
            public static let known: [Status] = [.pending, .approved, .completed, .cancelled, .failed]
        }

        public var amount: CurrencyAmount
        public var transactionType: Kind
        public var status: Status?
        /// RFC 3339.
        public var createdAt: String?
        public var paymentMethod: PaymentMethod?

        public init(amount: CurrencyAmount, transactionType: Kind, createdAt: String? = nil) {
            self.amount = amount
            self.transactionType = transactionType
            self.createdAt = createdAt
        }
    }

    /// An item of the order.
    public struct LineItem: Codable, Sendable, Hashable {
        public var title: String
        public var subtitle: String?
        /// How many (a JSON number).
        public var quantity: Double
        /// A file of the order package (`item-1.png`).
        public var image: String?
        public var price: CurrencyAmount?
        public var gtin: String?
        public var sku: String?

        public init(title: String, quantity: Double, subtitle: String? = nil, image: String? = nil, price: CurrencyAmount? = nil) {
            self.title = title
            self.quantity = quantity
            self.subtitle = subtitle
            self.image = image
            self.price = price
        }
    }
}
