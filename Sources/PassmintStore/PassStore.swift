public import Foundation

/// A pass the service issued and keeps up to date.
public struct StoredPass: Sendable, Equatable {
    public var passTypeIdentifier: String
    public var serialNumber: String
    /// Never changes for a serial: devices keep the token of the copy they have.
    public var authenticationToken: String
    /// The template's name (its folder name without `.pass`).
    public var template: String
    /// The pass's data (placeholder name → value) as a JSON object text.
    public var dataJSON: String
    public var voided: Bool
    /// Totally ordered across the store: a pass changed after tag T has a tag greater than T.
    public var updateTag: Int64
    /// When the pass last changed (whole seconds, strictly increasing per pass): the `Last-Modified` date.
    public var updatedAt: Date
    /// The outcome of the last push for this pass, as JSON text.
    public var lastPushJSON: String?
    /// What the user gave when signing up for a personalizable (rewards) pass, as a JSON object text; nil until then.
    public var personalizationJSON: String?

    public init(passTypeIdentifier: String, serialNumber: String, authenticationToken: String, template: String, dataJSON: String,
                voided: Bool = false, updateTag: Int64 = 0, updatedAt: Date = Date(), lastPushJSON: String? = nil,
                personalizationJSON: String? = nil) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.authenticationToken = authenticationToken
        self.template = template
        self.dataJSON = dataJSON
        self.voided = voided
        self.updateTag = updateTag
        self.updatedAt = updatedAt
        self.lastPushJSON = lastPushJSON
        self.personalizationJSON = personalizationJSON
    }
}

/// A device registered for a pass.
public struct DeviceRegistration: Sendable, Equatable, Hashable {
    public var deviceLibraryIdentifier: String
    public var pushToken: String
    public init(deviceLibraryIdentifier: String, pushToken: String) {
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        self.pushToken = pushToken
    }
}

public enum RegistrationResult: Sendable, Equatable {
    /// A new registration (HTTP 201).
    case created
    /// The device was already registered for this pass (HTTP 200); its push token was updated if it changed.
    case alreadyRegistered
}

/// The serial numbers a device should fetch, and the tag to send next time.
public struct UpdatedSerials: Sendable, Equatable {
    public var serialNumbers: [String]
    public var lastUpdated: Int64
    public init(serialNumbers: [String], lastUpdated: Int64) {
        self.serialNumbers = serialNumbers
        self.lastUpdated = lastUpdated
    }
}

/// Errors of a store.
public struct PassStoreError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A pass with this pass type identifier and serial number already exists.
        case duplicate
        case database
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}

/// Where the service keeps passes, devices and registrations. Two real backends: ``SQLitePassStore`` (the
/// embedded default) and `PostgresPassStore` (for a fleet of service nodes). Every method that returns has
/// committed durably.
public protocol PassStore: Sendable {
    /// Creates or upgrades the schema (named, forward-only migrations).
    func migrate() async throws

    /// Records a newly issued pass; its tag and date are assigned by the store. Throws `.duplicate` when the serial exists.
    func insert(_ pass: StoredPass) async throws -> StoredPass

    func pass(passTypeIdentifier: String, serialNumber: String) async throws -> StoredPass?

    /// Replaces a pass's data and voided flag, bumping its update tag and date. Nil when the pass does not exist.
    func update(passTypeIdentifier: String, serialNumber: String, dataJSON: String, voided: Bool) async throws -> StoredPass?

    /// Stores the information a user gave when signing up for a personalizable pass, bumping its update tag and date
    /// (the personalized pass replaces the one on the device). The first sign-up wins: a pass already personalized
    /// is returned unchanged, whatever it holds, so the caller compares. Nil when the pass does not exist.
    func personalize(passTypeIdentifier: String, serialNumber: String, personalizationJSON: String) async throws -> StoredPass?

    /// Registers a device (storing or updating its push token) for a pass.
    func register(deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String) async throws -> RegistrationResult

    /// Removes a registration, and the device when it has none left. True when a registration was removed.
    func unregister(deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String) async throws -> Bool

    /// Passes of a type this device registered for that changed after `updatedSince` (all when nil).
    func updatedSerials(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?) async throws -> UpdatedSerials

    /// The devices registered for a pass.
    func registrations(passTypeIdentifier: String, serialNumber: String) async throws -> [DeviceRegistration]

    /// Removes every registration of the device with this push token (APNs said the token is no longer valid).
    func removeDevices(pushToken: String) async throws

    /// Removes a pass with its registrations (and the devices left with none). True when the pass existed. Used to
    /// take back passes of an order that failed as a whole, before anyone received them.
    func delete(passTypeIdentifier: String, serialNumber: String) async throws -> Bool

    /// The push token a device registered with; nil when the device is unknown (it never registered, or its last
    /// registration is gone).
    func pushToken(deviceLibraryIdentifier: String) async throws -> String?

    /// Keeps the outcome of the last push for a pass.
    func recordPush(passTypeIdentifier: String, serialNumber: String, resultJSON: String) async throws

    /// A number that changes after every commit, read before a query and compared after it; nil while the store
    /// cannot tell when others change it. The service caches reads only while it stays the same. The SQLite store
    /// bumps it after its own commits (before they are acknowledged) and when it sees another process's commit (see
    /// ``SQLitePassStore``); the PostgreSQL store after its own commits, on every pass change another node announces,
    /// and when the server's WAL position moves (every commit of any node).
    var changeGeneration: UInt64? { get }
}

extension PassStore {
    public var changeGeneration: UInt64? { nil }
}

extension StoredPass {
    /// The next `updatedAt` after a change: now, but always at least one second after the previous one, so that
    /// `If-Modified-Since` (whole seconds) never hides a change.
    public static func nextUpdateDate(after previous: Date?, now: Date = Date()) -> Date {
        let whole = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        guard let previous else { return whole }
        return max(whole, Date(timeIntervalSince1970: previous.timeIntervalSince1970.rounded(.down) + 1))
    }
}
