package import Passmint

/// How `passmint check-service` runs.
package struct ServiceCheckOptions: Sendable {
    /// Check an `http://` service (a developer's machine; Wallet accepts it only on development devices). Without it an
    /// http URL fails `url.https` and nothing is called.
    package var allowHTTP = false
    /// How long one call may take, from sending it to its whole answer, before it counts as not reached.
    package var timeout: Duration = .seconds(30)
    /// Each read-only call (poll, latest version, 304) is made this many times, for the p50/p99 of its duration.
    package var repeatCount = 1
    /// A shell command that changes the document at the issuer; the after-change checks run when it is given.
    package var changeCommand: String?
    /// A second document of the same type at the same service, which the change command changes too, after the first:
    /// `change.both` checks that a device registered for both gets both for a tag older than both changes.
    package var second: ServiceCheckTarget?
    /// The root the latest version's signature chain must verify to (`passmint verify --ca`).
    package var root: Certificate?
    /// The service is called at its own loopback address (`serve --self-check`): only the document's `webServiceURL`
    /// is judged by `url.*`, not the http address called.
    package var loopback = false
    /// Headers every call carries besides the protocol's, not shown in what a result says was sent: `serve
    /// --self-check` marks its own calls with ``SelfCheckMark``, so that they leave no trace in the statistics.
    package var headers: [(name: String, value: String)] = []

    package init(
        allowHTTP: Bool = false, timeout: Duration = .seconds(30), repeatCount: Int = 1, changeCommand: String? = nil,
        second: ServiceCheckTarget? = nil,
        root: Certificate? = nil, loopback: Bool = false, headers: [(name: String, value: String)] = []
    ) {
        self.allowHTTP = allowHTTP
        self.timeout = timeout
        self.repeatCount = repeatCount
        self.changeCommand = changeCommand
        self.second = second
        self.root = root
        self.loopback = loopback
        self.headers = headers
    }
}
