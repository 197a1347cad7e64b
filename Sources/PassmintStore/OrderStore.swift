/// Where the service keeps Wallet orders and the devices registered for them, beside the passes: both backends
/// (``SQLitePassStore`` and `PostgresPassStore`) are order stores too. A change owes each registered device's push
/// token a push with the order type identifier as topic, through the same outbox as passes
/// (``PassStore/claimPushes(limit:lease:)``), in the change's transaction.
public protocol OrderStore: Sendable {
    /// Records a newly issued order: it takes the next tag and a date. Throws `.duplicate` when the order exists.
    func insertOrder(_ order: StoredOrder) async throws -> StoredOrder

    func order(orderTypeIdentifier: String, orderIdentifier: String) async throws -> StoredOrder?

    /// Replaces an order's data in one write transaction: reads it locked, refuses with `.stale` when `basedOn` is
    /// given and the order is no longer at that tag, writes the next version, reads the devices registered for it and
    /// owes each of their push tokens a push (topic: the order type identifier). Same data: nothing is written. Nil
    /// when the order does not exist.
    func changeOrder(orderTypeIdentifier: String, orderIdentifier: String, dataJSON: String, basedOn: Int64?) async throws
        -> OrderChange?

    /// Registers a device (storing or updating its push token) for an order.
    func registerOrder(
        deviceLibraryIdentifier: String, pushToken: String, orderTypeIdentifier: String, orderIdentifier: String
    ) async throws -> RegistrationResult

    /// Removes a registration, and the device when it has no order left. True when a registration was removed.
    func unregisterOrder(deviceLibraryIdentifier: String, orderTypeIdentifier: String, orderIdentifier: String) async throws -> Bool

    /// Orders of a type this device registered for that changed after `updatedSince` (all when nil).
    func updatedOrders(deviceLibraryIdentifier: String, orderTypeIdentifier: String, updatedSince: Int64?) async throws -> UpdatedOrders

    /// The devices registered for an order.
    func orderRegistrations(orderTypeIdentifier: String, orderIdentifier: String) async throws -> [DeviceRegistration]

    /// Where the push stands for each device registered for an order.
    func orderPushStates(orderTypeIdentifier: String, orderIdentifier: String) async throws -> [DevicePushState]
}
