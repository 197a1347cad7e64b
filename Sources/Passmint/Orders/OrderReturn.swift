extension Order {
    /// A return of items of the order.
    public struct Return: Codable, Sendable, Hashable {
        public var returnIdentifier: String
        /// The return's status (Passmint keeps any string; `OrderLinter` does not restrict it).
        public var status: String
        public var statusDescription: String?
        public var carrier: String?
        public var trackingNumber: String?
        public var trackingURL: String?
        /// RFC 3339.
        public var initiatedAt: String?
        /// RFC 3339.
        public var dropOffBy: String?
        public var returnManagementURL: String?
        public var lineItems: [LineItem]?
        public var notes: String?

        public init(returnIdentifier: String, status: String) {
            self.returnIdentifier = returnIdentifier
            self.status = status
        }
    }

    /// The merchant's return policy for the order.
    public struct ReturnInfo: Codable, Sendable, Hashable {
        public var returnPolicyURL: String?
        public var returnManagementURL: String?
        /// RFC 3339: the last day items may be returned.
        public var returnDeadline: String?
        public var displayCountdown: Bool?

        public init(returnPolicyURL: String? = nil, returnDeadline: String? = nil) {
            self.returnPolicyURL = returnPolicyURL
            self.returnDeadline = returnDeadline
        }
    }
}
