import Foundation
import Passmint
import PassmintStore

/// What an erased pass (``PassmintStore/StoredPass/erasedAt``) is rendered with instead of its data, which is gone: every
/// placeholder of its template blanked, so that the voided version devices fetch shows nothing of the person. Text
/// becomes "—" (a required text such as `description` may not be empty), a number 0, a flag false and a date the
/// start (UTC) of the day of the erasure, so that the version signed before the erasure committed and one signed later
/// agree; no per-pass image is named, so the template's images show. The serial number and the token stay (the pass
/// keeps them).
enum ErasedPassValues {
    static let blank = "—"

    static func values(for template: PassTemplate, of pass: StoredPass, erasedAt: Date) -> JSONObject {
        var values = JSONObject()
        let day = Date(timeIntervalSince1970: (erasedAt.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        let date = day.formatted(.iso8601)
        for name in template.placeholders {
            switch template.placeholderKinds[name] {
            case .number?: values[name] = .number(JSONNumber(0))
            case .boolean?: values[name] = .bool(false)
            case .date?: values[name] = .string(date)
            case nil: values[name] = .string(blank)
            }
        }
        if values["serialNumber"] != nil { values["serialNumber"] = .string(pass.serialNumber) }
        if values["authenticationToken"] != nil { values["authenticationToken"] = .string(pass.authenticationToken) }
        return values
    }
}
