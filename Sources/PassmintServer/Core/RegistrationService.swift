package import PassmintStore

/// Devices registering for a pass's updates, and leaving.
package struct RegistrationService: Sendable {
    let store: any PassStore
    let metrics: ServiceMetrics

    /// Registers a device (storing or updating its push token) for a pass.
    package func register(
        device: String, pushToken: String, passTypeIdentifier: String, serialNumber: String
    ) async throws -> RegistrationResult {
        let result = try await store.register(
            deviceLibraryIdentifier: device, pushToken: pushToken, passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        metrics.registration(result == .created ? "created" : "existing")
        return result
    }

    /// Removes a registration, and the device when it has none left.
    package func unregister(device: String, passTypeIdentifier: String, serialNumber: String) async throws {
        _ = try await store.unregister(deviceLibraryIdentifier: device, passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
    }
}
