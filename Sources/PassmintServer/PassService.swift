import Foundation
public import Logging
public import Passmint
public import PassmintPush
public import PassmintStore
import Synchronization

/// What the service does, independent of HTTP: issue passes, build the latest version of a pass, update and push.
public final class PassService: Sendable {
    public let store: any PassStore
    public let push: any PushSender
    public let builder: PassBuilder
    public let settings: ServerSettings
    let logger: Logger
    private let templates = Mutex<[String: PassTemplate]>([:])
    /// Signed pass bytes at each pass's latest tag (devices fetch the same version many times), at most 256 MB.
    private let cache = Mutex<PassCache>(PassCache(byteLimit: 256 << 20))
    /// Poll answers and pass rows between two changes of the store (see ``ReadCache``). Bounded in entries: a pass
    /// row holds the pass's data (typically under 1 KB), so the rows stay within a few tens of MB.
    private let pollCache = ReadCache<PollKey, UpdatedSerials>(limit: 32_768)
    private let passRows = ReadCache<PassKey, DevicePassView?>(limit: 16_384)
    /// Device log messages, newest last, bounded.
    private let deviceLogs = Mutex<[String]>([])
    /// Every push outcome since start-up, counted.
    private let pushCounts = Mutex(PushStatistics())
    /// Work started for a request that does not wait for it (the push after a sign-up); shutdown waits for it.
    private let backgroundWork = Mutex<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

    public init(store: any PassStore, push: any PushSender, builder: PassBuilder, settings: ServerSettings, logger: Logger) {
        self.store = store
        self.push = push
        self.builder = builder
        self.settings = settings
        self.logger = logger
    }

    /// Errors the HTTP layer turns into statuses.
    public enum Failure: Error, Sendable, Equatable {
        case badRequest(String)
        case notFound
        case conflict(String)
        case unprocessable(String)
    }

    /// A template by name (`Loyalty` → `<templatesFolder>/Loyalty.pass`), loaded once.
    func template(named name: String) throws -> PassTemplate {
        if let known = templates.withLock({ $0[name] }) { return known }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }), !name.hasPrefix(".") else {
            throw Failure.badRequest("template names are letters, digits, '-', '_' and '.'")
        }
        let folder = settings.templatesFolder + "/" + (name.hasSuffix(".pass") ? name : name + ".pass")
        guard FileManager.default.fileExists(atPath: folder) else { throw Failure.badRequest("no template named \(name) in \(settings.templatesFolder)") }
        let template: PassTemplate
        do {
            template = try PassTemplate(folder: folder)
        } catch {
            throw Failure.unprocessable("template \(name): \(error.message)")
        }
        templates.withLock { $0[name] = template }
        return template
    }

    struct PollKey: Hashable, Sendable {
        var device: String
        var passTypeIdentifier: String
        var since: Int64?
    }

    struct PassKey: Hashable, Sendable {
        var passTypeIdentifier: String
        var serialNumber: String
    }

    /// The serial-number poll: passes of a type this device registered for that changed after `since`.
    public func updatedSerials(device: String, passTypeIdentifier: String, since: Int64?) async throws -> UpdatedSerials {
        let generation = store.changeGeneration
        return try await pollCache.value(for: PollKey(device: device, passTypeIdentifier: passTypeIdentifier, since: since), generation: generation) {
            try await store.updatedSerials(deviceLibraryIdentifier: device, passTypeIdentifier: passTypeIdentifier, updatedSince: since)
        }
    }

    /// The cached poll answer, without touching the store; nil when it is not cached at the store's generation.
    func cachedUpdatedSerials(device: String, passTypeIdentifier: String, since: Int64?) -> UpdatedSerials? {
        pollCache.cachedValue(for: PollKey(device: device, passTypeIdentifier: passTypeIdentifier, since: since), generation: store.changeGeneration)
    }

    /// The cached pass row, without touching the store: `.some(nil)` is a cached "no such pass", nil a miss.
    func cachedDevicePass(passTypeIdentifier: String, serialNumber: String) -> DevicePassView?? {
        passRows.cachedValue(for: PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber), generation: store.changeGeneration)
    }

    /// Requests answered by the fast path (from memory, on the event loop), for the operator and tests.
    public var fastPathAnswers: Int { fastPathCount.load(ordering: .relaxed) }
    let fastPathCount = Atomic<Int>(0)

    /// A stored pass as devices see it, with its `Last-Modified` text (cached between changes of the store).
    func devicePass(passTypeIdentifier: String, serialNumber: String) async throws -> DevicePassView? {
        let generation = store.changeGeneration
        return try await passRows.value(for: PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber), generation: generation) {
            try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber).map(DevicePassView.init)
        }
    }

    /// A fresh authentication token (128 random bits, base64url).
    static func makeToken() -> String { BatchRunner.makeAuthenticationToken() }

    /// The template a stored pass is built from: its template, or the personalized variant (without
    /// `personalization.json`) once the user has signed up.
    private func template(for pass: StoredPass) throws -> PassTemplate {
        let template = try template(named: pass.template)
        guard pass.personalizationJSON != nil, template.isPersonalizable else { return template }
        let key = pass.template + "\u{0}personalized"
        if let known = templates.withLock({ $0[key] }) { return known }
        let personalized: PassTemplate
        do {
            personalized = try template.personalized()
        } catch {
            throw Failure.unprocessable("template \(pass.template): \(error.message)")
        }
        templates.withLock { $0[key] = personalized }
        return personalized
    }

    private func build(_ pass: StoredPass) throws -> BuiltPass {
        try sign(try prepare(pass))
    }

    private func sign(_ prepared: PreparedPass) throws -> BuiltPass {
        do {
            return try builder.sign(prepared)
        } catch {
            throw Failure.unprocessable(error.message)
        }
    }

    /// Renders and checks a stored pass: throws what building it would throw, without signing.
    private func prepare(_ pass: StoredPass) throws -> PreparedPass {
        let template = try template(for: pass)
        guard let data = try? JSONParser.value(Array(pass.dataJSON.utf8)).objectValue else {
            throw Failure.unprocessable("the stored data of \(pass.serialNumber) is not a JSON object")
        }
        var overrides: JSONObject = [
            "serialNumber": .string(pass.serialNumber), "authenticationToken": .string(pass.authenticationToken),
            "webServiceURL": .string(settings.publicURL),
        ]
        if pass.voided { overrides["voided"] = true }
        var values = data
        values["serialNumber"] = .string(pass.serialNumber)
        values["authenticationToken"] = .string(pass.authenticationToken)
        if template.isPersonalizable || pass.personalizationJSON != nil {
            // `{{personalization.fullName}}` …: what the user gave, or (before sign-up) the data's value or "".
            let info = pass.personalizationJSON.flatMap { try? JSONParser.value(Array($0.utf8)).objectValue }
                .flatMap { try? PersonalizationInfo(json: $0) }
            for member in (info ?? PersonalizationInfo()).placeholderValues where info != nil || values[member.key] == nil {
                values[member.key] = member.value
            }
        }
        do {
            return try builder.prepare(template: template, data: values, overrides: overrides)
        } catch {
            throw Failure.unprocessable(error.message)
        }
    }

    /// The signed bytes of a stored pass at its current tag (cached).
    public func latestPass(_ pass: StoredPass) throws -> [UInt8] {
        if let bytes = cache.withLock({ $0.bytes(for: pass) }) { return bytes }
        let bytes = try build(pass).archive
        remember(bytes, for: pass)
        return bytes
    }

    /// Keeps the signed bytes of a pass at its tag, so devices fetching it do not make it sign again.
    private func remember(_ archive: [UInt8], for pass: StoredPass) {
        cache.withLock { $0.store(archive, for: pass) }
    }

    /// The result of issuing a pass.
    public struct Issued: Sendable {
        public var pass: StoredPass
        public var archive: [UInt8]
    }

    /// A new pass from a template and data, rendered and checked but not stored: the serial number comes from the
    /// data (or is generated), the token too (or is generated).
    private func newPass(template name: String, data: JSONObject) throws -> (pass: StoredPass, prepared: PreparedPass) {
        _ = try template(named: name)  // an unknown template is a bad request before anything else
        var values = data
        let serial = values["serialNumber"]?.stringValue ?? values["serialNumber"]?.numberValue?.text ?? UUID().uuidString.lowercased()
        guard Self.isValidComponent(serial) else { throw Failure.badRequest("serialNumber must be 1–128 URL-safe characters") }
        let token = values["authenticationToken"]?.stringValue ?? Self.makeToken()
        guard token.count >= 16 else { throw Failure.badRequest("authenticationToken must have at least 16 characters") }
        values["serialNumber"] = .string(serial)
        values["authenticationToken"] = .string(token)
        var stored = StoredPass(passTypeIdentifier: "", serialNumber: serial, authenticationToken: token, template: name,
                                dataJSON: JSONWriter.string(.object(values), style: .compact))
        let prepared = try prepare(stored)
        stored.passTypeIdentifier = prepared.passTypeIdentifier
        return (stored, prepared)
    }

    private func insert(_ pass: StoredPass) async throws -> StoredPass {
        do {
            return try await store.insert(pass)
        } catch let error as PassStoreError where error.kind == .duplicate {
            throw Failure.conflict("a pass with serial number \(pass.serialNumber) already exists; PATCH it to change it")
        }
    }

    /// Issues a pass from a template and data; the serial number comes from the data (or is generated).
    public func issue(template name: String, data: JSONObject) async throws -> Issued {
        // Check first: data that does not make a valid pass is never stored. Then sign while the store commits (from
        // here only OpenSSL or libzip can fail, and the stored pass is signed again on its first fetch if they did).
        let (pass, prepared) = try newPass(template: name, data: data)
        async let signing = sign(prepared)
        let stored = try await insert(pass)
        let built = try await signing
        // The pass does not depend on its tag: the bytes built before the insert are this tag's latest pass.
        remember(built.archive, for: stored)
        return Issued(pass: stored, archive: built.archive)
    }

    /// One pass of a multi-ticket order.
    public struct Order: Sendable {
        public var template: String
        public var data: JSONObject
        public init(template: String, data: JSONObject) {
            self.template = template
            self.data = data
        }
    }

    /// A multi-ticket order as issued: its passes, and the `.pkpasses` bundle that holds them.
    public struct IssuedOrder: Sendable {
        public var passes: [Issued]
        /// The bundle (Passmint's `PassBundle`), entries named after the serial numbers.
        public var bundle: [UInt8]
    }

    /// Issues the passes of a multi-ticket order, all or none: every pass is rendered, checked and signed, and the
    /// bundle made, before any is stored; if storing one fails (a serial that exists), those stored before it are
    /// taken back. Errors name the order's index (`passes[2]: …`).
    public func issue(orders: [Order]) async throws -> IssuedOrder {
        var built: [(pass: StoredPass, archive: [UInt8])] = []
        var serials: Set<String> = []
        for (index, order) in orders.enumerated() {
            try await Self.naming(index) {
                let (pass, prepared) = try newPass(template: order.template, data: order.data)
                guard serials.insert(pass.serialNumber).inserted else {
                    throw Failure.badRequest("serial number \(pass.serialNumber) appears twice in this order")
                }
                built.append((pass, try sign(prepared).archive))
            }
        }
        let bundle: [UInt8]
        do {
            bundle = try PassBundle.make(built.map { PassBundle.Item(name: SerialFileName.fileName(for: $0.pass.serialNumber), archive: $0.archive) })
        } catch {
            throw Failure.unprocessable(error.message)
        }
        var issued: [Issued] = []
        for (index, item) in built.enumerated() {
            do {
                let stored = try await Self.naming(index) { try await insert(item.pass) }
                remember(item.archive, for: stored)
                issued.append(Issued(pass: stored, archive: item.archive))
            } catch {
                for taken in issued {
                    do {
                        _ = try await store.delete(passTypeIdentifier: taken.pass.passTypeIdentifier, serialNumber: taken.pass.serialNumber)
                    } catch let deleteError {
                        logger.error("cannot take back a pass of a failed order", metadata: [
                            "serialNumber": "\(taken.pass.serialNumber)", "error": "\(deleteError)",
                        ])
                    }
                }
                throw error
            }
        }
        return IssuedOrder(passes: issued, bundle: bundle)
    }

    /// Runs `body`, prefixing the message of a ``Failure`` with the order index it concerns.
    private static func naming<T>(_ index: Int, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as Failure {
            switch failure {
            case .badRequest(let message): throw Failure.badRequest("passes[\(index)]: \(message)")
            case .conflict(let message): throw Failure.conflict("passes[\(index)]: \(message)")
            case .unprocessable(let message): throw Failure.unprocessable("passes[\(index)]: \(message)")
            case .notFound: throw failure
            }
        }
    }

    /// The outcome of an update.
    public struct Updated: Sendable {
        public var pass: StoredPass
        public var pushes: [PushOutcome]
        /// False when the request changed nothing: then the tag stays and nothing is pushed.
        public var changed: Bool = true
    }

    /// Merges `data` into a pass's data and/or sets `voided`, bumps its tag, then pushes to every registered device.
    /// A request that changes nothing (the same values, the same `voided`) leaves the pass and its devices alone:
    /// Apple asks for a push only when a pass actually changed.
    public func update(passTypeIdentifier: String, serialNumber: String, data: JSONObject?, voided: Bool?) async throws -> Updated {
        guard let current = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber) else { throw Failure.notFound }
        let original = (try? JSONParser.value(Array(current.dataJSON.utf8)).objectValue) ?? JSONObject()
        var merged = original
        for member in data ?? JSONObject() where member.key != "serialNumber" && member.key != "authenticationToken" {
            merged[member.key] = member.value
        }
        if merged == original && (voided ?? current.voided) == current.voided {
            logger.info("pass update changed nothing; not pushed", metadata: ["passTypeIdentifier": "\(passTypeIdentifier)", "serialNumber": "\(serialNumber)"])
            return Updated(pass: current, pushes: [], changed: false)
        }
        var candidate = current
        candidate.dataJSON = JSONWriter.string(.object(merged), style: .compact)
        candidate.voided = voided ?? current.voided
        let prepared = try prepare(candidate)  // refuse data that does not make a valid pass
        async let signing = sign(prepared)  // signed while the store commits
        guard let updated = try await store.update(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber,
                                                   dataJSON: candidate.dataJSON, voided: candidate.voided) else { throw Failure.notFound }
        let built = try await signing
        remember(built.archive, for: updated)
        let outcomes = try await pushChange(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        logger.info("pass updated", metadata: [
            "passTypeIdentifier": "\(passTypeIdentifier)", "serialNumber": "\(serialNumber)", "tag": "\(updated.updateTag)",
            "pushed": "\(outcomes.filter { $0.result == .delivered }.count)/\(outcomes.count)",
        ])
        return Updated(pass: updated, pushes: outcomes)
    }

    /// Pushes to every device registered for a pass, removes the tokens APNs says are gone, records the outcome.
    private func pushChange(passTypeIdentifier: String, serialNumber: String) async throws -> [PushOutcome] {
        let registrations = try await store.registrations(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        let outcomes = await push.push(topic: passTypeIdentifier, pushTokens: Array(Set(registrations.map(\.pushToken))).sorted())
        for outcome in outcomes where outcome.result == .unregistered {
            try await store.removeDevices(pushToken: outcome.pushToken)
        }
        pushCounts.withLock { $0.count(outcomes) }
        let summary = Self.pushSummary(outcomes)
        try await store.recordPush(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, resultJSON: JSONWriter.string(summary, style: .compact))
        return outcomes
    }

    /// The answer to Wallet's personalize request: the signature of its token, and the pass as now stored.
    public struct Personalized: Sendable {
        /// The DER PKCS#7 detached signature of the personalization token's UTF-8 bytes, made with the pass certificate.
        public var signature: [UInt8]
        public var pass: StoredPass
    }

    /// The longest personalization token accepted (Wallet's are far shorter).
    static let maximumPersonalizationTokenLength = 4096

    /// Rewards enrollment: stores what the user gave, signs the personalization token with the pass certificate (the
    /// same PKCS#7 detached signature as the manifest's) and bumps the pass's tag, so the next fetch gets the
    /// personalized pass (without `personalization.json`). A retry with the same information signs again without
    /// another change; different information for a pass already personalized is a conflict.
    public func personalize(passTypeIdentifier: String, serialNumber: String, token: String, info: PersonalizationInfo) async throws -> Personalized {
        guard !token.isEmpty, token.utf8.count <= Self.maximumPersonalizationTokenLength else {
            throw Failure.badRequest("personalizationToken must be a non-empty string of at most \(Self.maximumPersonalizationTokenLength) bytes")
        }
        guard let current = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber) else { throw Failure.notFound }
        let template = try template(named: current.template)
        let request: PersonalizationRequest?
        do {
            request = try template.personalizationRequest()
        } catch {
            throw Failure.unprocessable(error.message)
        }
        guard let request else {
            throw Failure.badRequest("pass \(serialNumber) is not personalizable: its template \(current.template) has no personalization.json")
        }
        let missing = info.missing(request.requiredFields)
        guard missing.isEmpty else {
            throw Failure.badRequest("requiredPersonalizationInfo lacks \(missing.map(\.rawValue).joined(separator: ", ")), which personalization.json requires")
        }
        let infoJSON = JSONWriter.string(info.json, style: .compact)
        var stored = current
        if let previous = current.personalizationJSON {
            guard previous == infoJSON else {
                throw Failure.conflict("pass \(serialNumber) is already personalized with other information; the issuer can change its data with PATCH")
            }
        } else {
            var candidate = current
            candidate.personalizationJSON = infoJSON
            let built = try build(candidate)  // refuse information that does not make a valid pass
            guard let updated = try await store.personalize(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber,
                                                            personalizationJSON: infoJSON) else { throw Failure.notFound }
            guard updated.personalizationJSON == infoJSON else {  // another sign-up came first
                throw Failure.conflict("pass \(serialNumber) is already personalized with other information; the issuer can change its data with PATCH")
            }
            remember(built.archive, for: updated)
            stored = updated
            // The user's other devices (an iPad, …) still hold the sign-up version: tell them, without making Wallet
            // wait for APNs before it gets its signature.
            inBackground { [logger] in
                do {
                    _ = try await self.pushChange(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
                } catch {
                    logger.error("push after personalization failed", metadata: ["serialNumber": "\(serialNumber)", "error": "\(error)"])
                }
            }
        }
        let signature: [UInt8]
        do {
            signature = try builder.identity.signDetached(Array(token.utf8))
        } catch {
            throw Failure.unprocessable("cannot sign the personalization token: \(error.message)")
        }
        logger.info("pass personalized", metadata: [
            "passTypeIdentifier": "\(passTypeIdentifier)", "serialNumber": "\(serialNumber)", "tag": "\(stored.updateTag)",
            "fields": "\(request.requiredFields.map(\.rawValue).joined(separator: ","))",
        ])
        return Personalized(signature: signature, pass: stored)
    }

    /// Runs `work` without making the caller wait, and keeps it until it ends so that ``finishBackgroundWork()``
    /// can wait for it.
    private func inBackground(_ work: @escaping @Sendable () async -> Void) {
        backgroundWork.withLock { state in
            let id = state.next
            state.next += 1
            state.tasks[id] = Task {
                await work()
                _ = self.backgroundWork.withLock { $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Waits for the work started in the background (pushes after a sign-up); call it after the server stopped
    /// taking requests, before closing the push client.
    public func finishBackgroundWork() async {
        // Each task removes itself before it ends; work may start more work, hence the loop.
        while case let tasks = backgroundWork.withLock({ Array($0.tasks.values) }), !tasks.isEmpty {
            for task in tasks { await task.value }
        }
    }

    /// Every push outcome since the service started, counted (`GET /api/v1/stats`).
    public var pushStatistics: PushStatistics { pushCounts.withLock { $0 } }

    static func pushSummary(_ outcomes: [PushOutcome]) -> JSONValue {
        let formatter = ISO8601DateFormatter()
        return [
            "at": .string(formatter.string(from: Date())), "devices": .number(JSONNumber(outcomes.count)),
            "delivered": .number(JSONNumber(outcomes.filter { $0.result == .delivered }.count)),
            "unregistered": .number(JSONNumber(outcomes.filter { $0.result == .unregistered }.count)),
            "failed": .number(JSONNumber(outcomes.filter { $0.result == .failed }.count)),
            "results": .array(outcomes.map {
                ["status": .number(JSONNumber($0.status)), "result": .string($0.result.rawValue), "reason": $0.reason.map(JSONValue.string) ?? .null,
                 "attempts": .number(JSONNumber($0.attempts))]
            }),
        ]
    }

    /// Keeps device log messages (bounded) and writes them to the service log.
    func recordDeviceLogs(_ messages: [String]) {
        for message in messages { logger.notice("device log", metadata: ["message": "\(message.prefix(2000))"]) }
        deviceLogs.withLock { logs in
            logs.append(contentsOf: messages.map { String($0.prefix(2000)) })
            if logs.count > settings.logLimit { logs.removeFirst(logs.count - settings.logLimit) }
        }
    }

    /// The device log messages kept, oldest first.
    public var recentDeviceLogs: [String] { deviceLogs.withLock { $0 } }

    /// Path components (device library id, pass type id, serial number): 1–128 characters of letters, digits and
    /// `. _ - : ~`.
    static func isValidComponent(_ text: Substring) -> Bool {
        guard (1...128).contains(text.utf8.count) else { return false }
        return text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "~"):
                true
            default: false
            }
        }
    }

    static func isValidComponent(_ text: String) -> Bool { isValidComponent(Substring(text)) }

    /// Constant-time comparison of a presented token with the stored one (time depends only on the lengths).
    static func tokensMatch(_ presented: String, _ stored: String) -> Bool {
        var presented = presented
        var stored = stored
        return presented.withUTF8 { a in
            stored.withUTF8 { b in
                var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
                for index in 0..<max(a.count, b.count) {
                    difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0xFF)
                }
                return difference == 0 && !a.isEmpty
            }
        }
    }
}

/// What the device endpoints need of a stored pass, shared by reference from the read cache.
final class DevicePassView: Sendable {
    let pass: StoredPass
    /// ``StoredPass/updatedAt`` as an HTTP-date, the `Last-Modified` value.
    let lastModified: String

    init(_ pass: StoredPass) {
        self.pass = pass
        self.lastModified = HTTPDate.string(pass.updatedAt)
    }
}

/// Signed pass bytes: one version per pass (the newest tag stored), bounded in bytes; the passes stored longest ago
/// go first. An update replaces the pass's old bytes instead of leaving them to age out.
struct PassCache {
    struct Key: Hashable {
        var passTypeIdentifier: String
        var serialNumber: String

        init(_ pass: StoredPass) {
            passTypeIdentifier = pass.passTypeIdentifier
            serialNumber = pass.serialNumber
        }
    }
    private struct Entry {
        var updateTag: Int64
        var bytes: [UInt8]
    }
    /// The most bytes kept; a single pass larger than this is not kept.
    let byteLimit: Int
    private(set) var byteCount = 0
    private var entries: [Key: Entry] = [:]
    /// Keys in the order they were first stored; those before `head` are evicted (a key stored again after its
    /// eviction is appended again).
    private var order: [Key] = []
    private var head = 0

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    var count: Int { entries.count }

    /// The bytes of `pass` at its update tag, if they are kept.
    func bytes(for pass: StoredPass) -> [UInt8]? {
        guard let entry = entries[Key(pass)], entry.updateTag == pass.updateTag else { return nil }
        return entry.bytes
    }

    /// Keeps the bytes of `pass` at its update tag, unless a newer tag of the pass is already kept.
    mutating func store(_ bytes: [UInt8], for pass: StoredPass) {
        guard bytes.count <= byteLimit else { return }
        let key = Key(pass)
        if let old = entries[key] {
            guard old.updateTag <= pass.updateTag else { return }
            byteCount -= old.bytes.count
        } else {
            order.append(key)
        }
        entries[key] = Entry(updateTag: pass.updateTag, bytes: bytes)
        byteCount += bytes.count
        while byteCount > byteLimit, head < order.count {
            if let evicted = entries.removeValue(forKey: order[head]) { byteCount -= evicted.bytes.count }
            head += 1
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
