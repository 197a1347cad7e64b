/// How long the text values of a pass's data are: a pass field is never megabytes (the service's `--max-value-size`).
package enum ValueSize {
    /// The first text value (or key) under `value` longer than `limit` UTF-8 bytes: its JSON path
    /// (`data.memberName`, `data.offers[2]`, with the key cut to 64 characters) and its length; nil when none is.
    package static func longest(in value: JSONValue, path: String, over limit: Int) -> (path: String, bytes: Int)? {
        switch value {
        case .string(let text):
            let length = text.utf8.count
            return length > limit ? (path, length) : nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = longest(in: element, path: "\(path)[\(index)]", over: limit) { return found }
            }
            return nil
        case .object(let object):
            for member in object {
                let name = member.key.count > 64 ? String(member.key.prefix(64)) + "…" : member.key
                if member.key.utf8.count > limit { return ("\(path).\(name) (the key)", member.key.utf8.count) }
                if let found = longest(in: member.value, path: "\(path).\(name)", over: limit) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
