import Foundation
import PassmintStore

/// Records the events that change nothing else in the store: a pass's landing page opened, its archive downloaded
/// through its link, its latest version fetched by a device. (Events caused by a change are written by the store in
/// the change's transaction.) Each is committed before the answer goes out.
package struct PassEventLog: Sendable {
    let store: any PassStore
    /// The time events are recorded at: the wall clock, or a test's.
    let clock: @Sendable () -> Date

    /// Records `kind` for `pass`; `changeAt` for a fetch: when the version fetched was made.
    func record(_ kind: PassEventKind, _ pass: StoredPass, changeAt: Date? = nil) async throws {
        try await store.record([
            PassEvent(
                kind: kind, passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber, template: pass.template,
                at: clock(), changeAt: changeAt)
        ])
    }
}
