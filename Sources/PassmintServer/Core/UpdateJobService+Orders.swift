import Foundation
import Passmint
import PassmintStore
import Synchronization

/// Lines of a bulk change that name orders: each is the change a `PATCH` of the order makes (``OrderService``): its
/// data merged, checked against the stored version (a completed or cancelled order open again, a delivered shipment
/// back on its way are refused), `updatedAt` later than the stored one, and a push owed to each registered device in
/// the same transaction.
extension UpdateJobService {
    /// `replayingSince`: the line may have been applied by a service killed since then; found as it would leave it,
    /// it counts as changed when its order changed since then.
    func applyOrder(_ line: BulkUpdateLine, replayingSince: Date?) async -> Outcome {
        beforeEachItem.withLock { $0 }?()
        let id = line.serialNumber
        guard let orders else { return .failed(LineFailure("this service does not keep orders", order: id)) }
        do {
            let result = try await orders.update(
                orderTypeIdentifier: line.passTypeIdentifier, orderIdentifier: id, data: line.data ?? [:], ifMatch: nil)
            if result.changed == true { return .changed(pushes: result.queuedPushes ?? 0) }
            if let replayingSince, result.pass.updatedAt >= replayingSince { return .changed(pushes: result.registrations) }
            return .unchanged
        } catch let failure as ServiceFailure where failure == .notFound {
            return .failed(LineFailure("no order \(line.passTypeIdentifier)/\(id)", order: id))
        } catch let failure as ServiceFailure {
            return .failed(LineFailure(failure.message ?? failure.description, order: id))
        } catch {
            return .failed(LineFailure("not stored: \(error)", order: id))
        }
    }
}
