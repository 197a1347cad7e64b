package import PassmintStore

/// Devices registering for a pass's updates, and leaving.
package struct RegistrationService: Sendable {
    let store: any PassStore
    let metrics: ServiceMetrics

    /// Registers a device (storing or updating its push token) for a pass. `counted` false (`serve --self-check`'s
    /// own device): no events, no install, not in the registration metrics.
    package func register(
        device: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, counted: Bool = true
    ) async throws -> RegistrationResult {
        let result = try await store.register(
            deviceLibraryIdentifier: device, pushToken: pushToken, passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber,
            recordsEvents: counted)
        if counted { metrics.registration(result == .created ? "created" : "existing") }
        return result
    }

    /// Removes a registration, and the device when it has none left (`counted` false: without its event).
    package func unregister(device: String, passTypeIdentifier: String, serialNumber: String, counted: Bool = true) async throws {
        _ = try await store.unregister(
            deviceLibraryIdentifier: device, passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, recordsEvents: counted)
    }
}
