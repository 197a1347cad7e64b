import Passmint

/// `bytes` bytes from the system's secure random generator, as lowercase hex digits (two a byte): the names of jobs,
/// nodes and webhooks, webhook secrets, and the tokens and device identifiers of `passmint check-service`.
func randomHex(_ bytes: Int) -> String {
    hexString((0..<bytes).map { _ in UInt8.random(in: 0...255) })
}
