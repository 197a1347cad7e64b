package import HTTPTypes

/// What tells `serve --self-check`'s own requests from a device's: a header holding a secret made when the service
/// starts, known only to this process, which the self-check sends with every call over loopback. The routes answer a
/// marked request as any other, but leave no trace of it in what users see: its registrations write no events and no
/// install (``RegistrationService``), its download is not a `fetched` event, its log message is not kept.
package struct SelfCheckMark: Sendable {
    /// `Passmint-Self-Check`.
    package static let headerName = HTTPField.Name("Passmint-Self-Check")!

    /// 32 random hex digits.
    package let secret: String

    package init() {
        secret = randomHex(16)
    }

    /// The header the self-check sends.
    package var header: (name: String, value: String) { (Self.headerName.canonicalName, secret) }

    /// Whether `headers` carry this process's mark (compared in constant time).
    package func marks(_ headers: HTTPFields) -> Bool {
        guard let presented = headers[Self.headerName] else { return false }
        return TokenComparison.matches(presented, secret)
    }
}
