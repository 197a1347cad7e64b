import Foundation
import Passmint
import Synchronization

/// The signing chains a ``PaymentSignatureVerifier`` has checked to its root, each with the span in which all three
/// certificates are valid. Apple signs every token with the same few leaf certificates, so a token whose leaf and
/// intermediate (compared byte for byte) were checked before needs only the verification time checked against that
/// span, not the certificates' signatures again (two P-256 and one P-384 verifications a token). Holds at most
/// ``capacity`` chains; a chain seen after that is checked in full every time.
final class VerifiedChains: Sendable {
    /// A leaf and the intermediate that issued it, as DER.
    struct Chain: Hashable {
        let leaf: [UInt8]
        let intermediate: [UInt8]
    }

    /// Apple's current and next leaf under one or two intermediates, with room for test roots' chains.
    static let capacity = 16

    private let spans = Mutex<[Chain: ClosedRange<Date>]>([:])

    /// Whether `chain` was verified in full before and `time` lies within its certificates' common validity.
    func covers(_ chain: Chain, at time: Date) -> Bool {
        spans.withLock { $0[chain]?.contains(time) ?? false }
    }

    /// Remembers `chain`, verified in full to `root`: valid from the latest of the three certificates' start to the
    /// earliest end.
    func remember(_ chain: Chain, leaf: Certificate, intermediate: Certificate, root: Certificate) {
        let from = max(leaf.notBefore, intermediate.notBefore, root.notBefore)
        let until = min(leaf.notAfter, intermediate.notAfter, root.notAfter)
        guard from <= until else { return }
        spans.withLock { spans in
            if spans[chain] == nil, spans.count >= Self.capacity { return }
            spans[chain] = from...until
        }
    }

    /// How many chains are remembered.
    var count: Int { spans.withLock { $0.count } }
}
