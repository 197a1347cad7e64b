public import Logging
import Synchronization

/// What devices report to `POST …/v1/log`: written to the service log and the newest kept for the operator
/// (`GET /api/v1/logs`), each message cut at 2,000 characters.
public final class DeviceLogBook: Sendable {
    private let kept = Mutex<[String]>([])
    let limit: Int
    let logger: Logger

    public init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    func record(_ messages: [String]) {
        let cut = messages.map { String($0.prefix(2000)) }
        for message in cut { logger.notice("device log", metadata: ["message": "\(message)"]) }
        kept.withLock { logs in
            logs.append(contentsOf: cut)
            if logs.count > limit { logs.removeFirst(logs.count - limit) }
        }
    }

    /// The messages kept, oldest first.
    public var recent: [String] { kept.withLock { $0 } }
}
