import Foundation
import HTTPTypes
import PassmintStore

/// The issuing API's optimistic concurrency control: the pass metadata carries an `ETag` naming the pass's version
/// (its update tag, quoted: `"1234"`), and a PATCH sent `If-Match` that tag is made only while the pass is still at
/// that version (412 otherwise).
enum EntityTags {
    /// The `ETag` of a pass's version. It names the stored pass; the device counts around it may move under one tag.
    static func value(_ pass: StoredPass) -> String { "\"\(pass.updateTag)\"" }

    /// The versions an `If-Match` header accepts; nil when there is none or it is `*` (any version). Entity tags are
    /// compared strongly: a weak one (`W/"…"`) or one this service never gave matches no version.
    static func ifMatch(_ headers: HTTPFields) -> Set<Int64>? {
        let values = headers[values: .ifMatch]
        guard !values.isEmpty else { return nil }
        var tags: Set<Int64> = []
        for element in values.joined(separator: ",").split(separator: ",") {
            let tag = element.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return nil }
            guard tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\""), let number = Int64(tag.dropFirst().dropLast()) else { continue }
            tags.insert(number)
        }
        return tags
    }
}
