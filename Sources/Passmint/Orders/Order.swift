public import Foundation

/// The typed model of `order.json`, the description of a Wallet order (iOS 16+): identifiers, status, merchant,
/// payment, line items, fulfillments (shipping and pickup, each with its own status), customer, returns, associated
/// apps and the order provider. Dates are RFC 3339 strings (``RFC3339Date``); `updatedAt` must grow with every change.
///
/// Read with ``init(json:source:)`` and written with ``jsonObject()``, an order keeps its member order, its number literals
/// and the keys this model does not know (at the top level in ``additionalProperties``, inside nested objects as they
/// were). Build one in code and ``OrderBuilder`` signs it into an `.order` package.
public struct Order: Codable, Sendable, Hashable {
    /// The order's status as Wallet shows it.
    public struct Status: OpenStringValue {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let open: Status = "open"
        public static let completed: Status = "completed"
        public static let cancelled: Status = "cancelled"
        public static let known: [Status] = [.open, .completed, .cancelled]
    }

    /// What kind of order this is; Wallet knows `ecommerce`.
    public struct OrderType: OpenStringValue {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let ecommerce: OrderType = "ecommerce"
        public static let known: [OrderType] = [.ecommerce]
    }

    /// 1 (iOS 16: `payment` required) or 2 (iOS 17).
    public var schemaVersion: Int = 1
    /// The Order Type ID (`order.com.example`): the signing certificate's UID.
    public var orderTypeIdentifier: String
    /// The order's identifier, unique within its order type.
    public var orderIdentifier: String
    public var orderType: OrderType = .ecommerce
    /// The number the customer knows the order by.
    public var orderNumber: String?
    /// Where the customer manages the order (https).
    public var orderManagementURL: String
    /// RFC 3339.
    public var createdAt: String
    /// RFC 3339; greater with every new version of the order.
    public var updatedAt: String
    public var status: Status
    public var statusDescription: String?
    public var merchant: Merchant
    public var customer: Customer?
    public var payment: Payment?
    public var lineItems: [LineItem]?
    public var fulfillments: [Fulfillment]?
    public var returns: [Return]?
    public var returnInfo: ReturnInfo?
    public var barcode: Barcode?
    public var associatedApplications: [Application]?
    public var associatedApplicationIdentifiers: [String]?
    /// The order web service (https); devices register with it and fetch new versions.
    public var webServiceURL: String?
    /// At least 16 characters; sent as `Authorization: AppleOrder <token>`.
    public var authenticationToken: String?
    public var orderProvider: OrderProvider?
    /// `enabled` or `disabled`: whether Wallet notifies the customer of changes.
    public var changeNotifications: String?

    /// Top-level keys this model does not know, kept as they are.
    public var additionalProperties = JSONObject()
    /// The JSON the order was read from, for ``jsonObject()``'s member order and nested unknown keys.
    var layout = JSONLayout()

    public init(
        orderTypeIdentifier: String, orderIdentifier: String, orderManagementURL: String, createdAt: String, updatedAt: String,
        status: Status, merchant: Merchant
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.orderManagementURL = orderManagementURL
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.status = status
        self.merchant = merchant
    }

    /// ``updatedAt`` as a date; nil when it is not RFC 3339.
    public var updatedDate: Date? { RFC3339Date.parse(updatedAt) }

    package static let modelKeys: Set<String> = [
        "schemaVersion", "orderTypeIdentifier", "orderIdentifier", "orderType", "orderNumber", "orderManagementURL", "createdAt",
        "updatedAt", "status", "statusDescription", "merchant", "customer", "payment", "lineItems", "fulfillments", "returns",
        "returnInfo", "barcode", "associatedApplications", "associatedApplicationIdentifiers", "webServiceURL",
        "authenticationToken", "orderProvider", "changeNotifications",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        schemaVersion = try c.required("schemaVersion")
        orderTypeIdentifier = try c.required("orderTypeIdentifier")
        orderIdentifier = try c.required("orderIdentifier")
        orderType = try c.required("orderType")
        orderNumber = try c.optional("orderNumber")
        orderManagementURL = try c.required("orderManagementURL")
        createdAt = try c.required("createdAt")
        updatedAt = try c.required("updatedAt")
        status = try c.required("status")
        statusDescription = try c.optional("statusDescription")
        merchant = try c.required("merchant")
        customer = try c.optional("customer")
        payment = try c.optional("payment")
        lineItems = try c.optional("lineItems")
        fulfillments = try c.optional("fulfillments")
        returns = try c.optional("returns")
        returnInfo = try c.optional("returnInfo")
        barcode = try c.optional("barcode")
        associatedApplications = try c.optional("associatedApplications")
        associatedApplicationIdentifiers = try c.optional("associatedApplicationIdentifiers")
        webServiceURL = try c.optional("webServiceURL")
        authenticationToken = try c.optional("authenticationToken")
        orderProvider = try c.optional("orderProvider")
        changeNotifications = try c.optional("changeNotifications")
        additionalProperties = try c.unknownMembers(known: Self.modelKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(schemaVersion, "schemaVersion")
        try c.put(orderTypeIdentifier, "orderTypeIdentifier")
        try c.put(orderIdentifier, "orderIdentifier")
        try c.put(orderType, "orderType")
        try c.put(orderNumber, "orderNumber")
        try c.put(orderManagementURL, "orderManagementURL")
        try c.put(createdAt, "createdAt")
        try c.put(updatedAt, "updatedAt")
        try c.put(status, "status")
        try c.put(statusDescription, "statusDescription")
        try c.put(merchant, "merchant")
        try c.put(customer, "customer")
        try c.put(payment, "payment")
        try c.put(lineItems, "lineItems")
        try c.put(fulfillments, "fulfillments")
        try c.put(returns, "returns")
        try c.put(returnInfo, "returnInfo")
        try c.put(barcode, "barcode")
        try c.put(associatedApplications, "associatedApplications")
        try c.put(associatedApplicationIdentifiers, "associatedApplicationIdentifiers")
        try c.put(webServiceURL, "webServiceURL")
        try c.put(authenticationToken, "authenticationToken")
        try c.put(orderProvider, "orderProvider")
        try c.put(changeNotifications, "changeNotifications")
        try c.put(unknown: additionalProperties)
    }
}
