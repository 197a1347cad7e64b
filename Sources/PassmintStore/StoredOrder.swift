public import Foundation

/// A Wallet order the service issued and keeps up to date, kept beside the passes (its own tables).
public struct StoredOrder: Sendable, Equatable {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    /// Never changes for an order: devices send it back as `Authorization: AppleOrder <token>`.
    public var authenticationToken: String
    /// The order template's name (its folder name without `.order`).
    public var template: String
    /// The order's data (placeholder name → value) as a JSON object text.
    public var dataJSON: String
    /// Totally ordered across the store (the passes' counter): an order changed after tag T has a tag greater than T.
    public var updateTag: Int64
    /// When the order last changed (whole seconds, strictly increasing per order): its `updatedAt` and the
    /// `Last-Modified` date.
    public var updatedAt: Date

    public init(
        orderTypeIdentifier: String, orderIdentifier: String, authenticationToken: String, template: String, dataJSON: String,
        updateTag: Int64 = 0, updatedAt: Date = Date()
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.authenticationToken = authenticationToken
        self.template = template
        self.dataJSON = dataJSON
        self.updateTag = updateTag
        self.updatedAt = updatedAt
    }

    /// The first version of a newly issued order, with the tag the store's counter gave it.
    public func firstVersion(tag: Int64, now: Date) -> StoredOrder {
        var order = self
        order.updateTag = tag
        order.updatedAt = StoredPass.nextUpdateDate(after: nil, now: now)
        return order
    }

    /// The version with new data, with the tag the store's counter gave it and a date at least a second after the
    /// previous one (``StoredPass/nextUpdateDate(after:now:)``).
    public func nextVersion(dataJSON: String, tag: Int64, now: Date) -> StoredOrder {
        var order = self
        order.dataJSON = dataJSON
        order.updateTag = tag
        order.updatedAt = StoredPass.nextUpdateDate(after: updatedAt, now: now)
        return order
    }

    /// Refuses a change made from a version other than the stored one (compare-and-swap on the tag).
    public func checkBasedOn(_ basedOn: Int64?) throws(PassStoreError) {
        guard let basedOn, updateTag != basedOn else { return }
        throw PassStoreError(
            .stale,
            "order \(orderTypeIdentifier) / \(orderIdentifier) changed (tag \(updateTag)) since version \(basedOn) was read; "
                + "read it again and redo the change")
    }
}

/// An order after a change, and the devices registered for it when the change committed (read in its transaction).
public struct OrderChange: Sendable, Equatable {
    public var order: StoredOrder
    /// False when the new data was the stored data: nothing was written and no push is owed.
    public var changed: Bool
    public var registrations: [DeviceRegistration]

    public init(order: StoredOrder, changed: Bool, registrations: [DeviceRegistration]) {
        self.order = order
        self.changed = changed
        self.registrations = registrations
    }
}

/// The orders a device should fetch, and the tag to send next time (its `lastModified`).
public struct UpdatedOrders: Sendable, Equatable {
    public var orderIdentifiers: [String]
    public var lastUpdated: Int64

    public init(orderIdentifiers: [String], lastUpdated: Int64) {
        self.orderIdentifiers = orderIdentifiers
        self.lastUpdated = lastUpdated
    }
}
