import Foundation
package import Passmint
import PassmintStore

/// A job as the API answers it and the jobs folder keeps it.
extension UpdateJob {
    package var json: JSONObject {
        var object: JSONObject = [
            "id": .string(id), "kind": .string(kind.rawValue), "state": .string(state.rawValue), "done": number(done),
            "changed": number(changed), "unchanged": number(unchanged), "failed": number(failed),
            "pushesQueued": number(pushesQueued), "offset": .number(JSONNumber(Int(offset))),
            "createdAt": .string(Self.stamp(createdAt)), "failures": .array(firstFailures),
        ]
        if failuresWritten < failed { object["failuresNotKept"] = number(failed - failuresWritten) }
        if failuresWritten > 0 { object["failuresWritten"] = number(failuresWritten) }
        if let template { object["template"] = .string(template) }
        if let data { object["data"] = .object(data) }
        if purgeUnused { object["purgeUnused"] = true }
        if let phase { object["phase"] = .string(phase.rawValue) }
        if kind == .template {
            object["checked"] = number(checked)
            object["kept"] = number(kept)
        }
        if let after { object["after"] = [.string(after.passTypeIdentifier), .string(after.serialNumber)] }
        if let chunkStartedAt { object["chunkStartedAt"] = .string(Self.stamp(chunkStartedAt)) }
        if let finishedAt { object["finishedAt"] = .string(Self.stamp(finishedAt)) }
        if let error { object["error"] = .string(error) }
        if let note { object["note"] = .string(note) }
        return object
    }

    /// Reads back ``json``; nil when it is not a job.
    package init?(json: JSONObject) {
        guard let id = json["id"]?.stringValue, let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let state = json["state"]?.stringValue.flatMap(State.init(rawValue:)),
            let created = json["createdAt"]?.stringValue.flatMap(Self.date)
        else { return nil }
        self.init(id: id, kind: kind, createdAt: created)
        self.state = state
        template = json["template"]?.stringValue
        data = json["data"]?.objectValue
        purgeUnused = json["purgeUnused"]?.boolValue ?? false
        phase = json["phase"]?.stringValue.flatMap(Phase.init(rawValue:))
        func int(_ key: String) -> Int { json[key]?.numberValue?.intValue ?? 0 }
        done = int("done")
        checked = int("checked")
        changed = int("changed")
        unchanged = int("unchanged")
        failed = int("failed")
        kept = int("kept")
        failuresWritten = json["failuresWritten"] == nil ? failed - int("failuresNotKept") : int("failuresWritten")
        firstFailures = json["failures"]?.arrayValue ?? []
        pushesQueued = int("pushesQueued")
        offset = Int64(int("offset"))
        if let key = json["after"]?.arrayValue, key.count == 2, let type = key[0].stringValue, let serial = key[1].stringValue {
            after = PassKey(passTypeIdentifier: type, serialNumber: serial)
        }
        chunkStartedAt = json["chunkStartedAt"]?.stringValue.flatMap(Self.date)
        finishedAt = json["finishedAt"]?.stringValue.flatMap(Self.date)
        error = json["error"]?.stringValue
        note = json["note"]?.stringValue
    }

    private func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    private static func stamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func date(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
