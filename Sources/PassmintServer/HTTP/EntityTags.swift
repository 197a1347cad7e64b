import Foundation
import HTTPTypes
import Passmint
import PassmintStore

/// The issuing API's optimistic concurrency control: the pass metadata carries an `ETag` naming the pass's version
/// (its update tag, quoted: `"1234"`), and a PATCH sent `If-Match` that tag is made only while the pass is still at
/// that version (412 otherwise).
enum EntityTags {
    /// The `ETag` of a pass's version. It names the stored pass; the device counts around it may move under one tag.
    static func value(_ pass: StoredPass) -> String { "\"\(pass.updateTag)\"" }

    /// The versions an `If-Match` header accepts; nil when there is none or it is `*` (any version). Entity tags are
    /// compared strongly: a weak one (`W/"…"`) or one this service never gave matches no version. A value that is no
    /// entity tag at all (unquoted, as a client that dropped the quotes sends it) is refused with 400, not answered
    /// with a misleading 412.
    static func ifMatch(_ headers: HTTPFields) throws(ServiceFailure) -> Set<Int64>? {
        let values = headers[values: .ifMatch]
        guard !values.isEmpty else { return nil }
        var tags: Set<Int64> = []
        for element in values.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false) {
            let tag = element.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return nil }
            let opaque = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
            guard opaque.count >= 2, opaque.hasPrefix("\""), opaque.hasSuffix("\""), !opaque.dropFirst().dropLast().contains("\"") else {
                throw ServiceFailure.badRequest(
                    "If-Match: \(MessageText.cut(tag)) is not an entity tag: send the ETag as the GET answered it, "
                        + "with its quotes (If-Match: \"1234\"), or leave If-Match out")
            }
            guard !tag.hasPrefix("W/"), let number = Int64(opaque.dropFirst().dropLast()) else { continue }
            tags.insert(number)
        }
        return tags
    }
}
