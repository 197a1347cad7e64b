/// What tests read from a store beyond what the service needs. Not part of ``PassStore``: the product never asks.
package protocol PassStoreInspection: Sendable {
    /// The push token a device registered with; nil when the device is unknown (it never registered, or its last
    /// registration is gone).
    func pushToken(deviceLibraryIdentifier: String) async throws -> String?
    /// A pass's row as stored, its columns `data`, `personalization`, `voided` and `erased_at` as text (NULL: nil);
    /// nil when there is no row.
    func passRow(passTypeIdentifier: String, serialNumber: String) async throws -> [String: String?]?
}
