public import Foundation
public import Passmint
public import PassmintStore

/// A bulk change the service applies in the background: the lines of a `POST /api/v1/updates` upload, or every pass
/// of a template after `POST /api/v1/templates/{name}/publish`. Kept in the jobs folder (``JobFolder``) and written
/// after every committed chunk, so a restarted service goes on where the last one stopped.
public struct UpdateJob: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// JSON Lines of `{"passTypeIdentifier", "serialNumber", "data", "voided", "images"}`.
        case updates
        /// Every pass issued from ``UpdateJob/template``.
        case template
    }

    public enum State: String, Sendable {
        case running, finished
        /// Stopped as a whole (its upload is gone); ``UpdateJob/error`` says why. A bad line never stops a job.
        case failed
    }

    public var id: String
    public var kind: Kind
    public var state: State = .running
    /// The template of a template-wide change.
    public var template: String?
    /// Values set on every pass of a template-wide change (merged as a `PATCH` merges its `data`).
    public var data: JSONObject?
    /// Lines (or passes) done, bad ones included.
    public var done = 0
    /// The upload's bytes done: where a restart goes on.
    public var offset: Int64 = 0
    /// The last pass done of a template-wide change: where a restart goes on.
    public var after: PassKey?
    public var changed = 0
    /// Lines that left their pass as it was (nothing pushed).
    public var unchanged = 0
    public var failed = 0
    /// Pushes the changes owed (before coalescing across passes).
    public var pushesQueued = 0
    public var createdAt: Date
    public var finishedAt: Date?
    public var error: String?

    public init(id: String, kind: Kind, createdAt: Date = Date()) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
    }

    /// The job as the API answers it and the jobs folder keeps it.
    public var json: JSONObject {
        var object: JSONObject = [
            "id": .string(id), "kind": .string(kind.rawValue), "state": .string(state.rawValue), "done": number(done),
            "changed": number(changed), "unchanged": number(unchanged), "failed": number(failed),
            "pushesQueued": number(pushesQueued), "offset": .number(JSONNumber(Int(offset))),
            "createdAt": .string(Self.stamp(createdAt)),
        ]
        if let template { object["template"] = .string(template) }
        if let data { object["data"] = .object(data) }
        if let after { object["after"] = [.string(after.passTypeIdentifier), .string(after.serialNumber)] }
        if let finishedAt { object["finishedAt"] = .string(Self.stamp(finishedAt)) }
        if let error { object["error"] = .string(error) }
        return object
    }

    /// Reads back ``json``; nil when it is not a job.
    public init?(json: JSONObject) {
        guard let id = json["id"]?.stringValue, let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let state = json["state"]?.stringValue.flatMap(State.init(rawValue:)),
            let created = json["createdAt"]?.stringValue.flatMap(Self.date)
        else { return nil }
        self.init(id: id, kind: kind, createdAt: created)
        self.state = state
        template = json["template"]?.stringValue
        data = json["data"]?.objectValue
        func int(_ key: String) -> Int { json[key]?.numberValue?.intValue ?? 0 }
        done = int("done")
        changed = int("changed")
        unchanged = int("unchanged")
        failed = int("failed")
        pushesQueued = int("pushesQueued")
        offset = Int64(int("offset"))
        if let key = json["after"]?.arrayValue, key.count == 2, let type = key[0].stringValue, let serial = key[1].stringValue {
            after = PassKey(passTypeIdentifier: type, serialNumber: serial)
        }
        finishedAt = json["finishedAt"]?.stringValue.flatMap(Self.date)
        error = json["error"]?.stringValue
    }

    private func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    private static func stamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func date(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
