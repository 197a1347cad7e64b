extension JSONValue {
    /// This value laid out like `layout`, a JSON value it was made from: object members in `layout`'s order (members
    /// `layout` lacks follow in their own order), array elements matched by position, and numbers equal to `layout`'s
    /// written with `layout`'s literal (`2.50` stays `2.50`). Used so a pass read into the typed model and written again
    /// keeps the author's member order.
    func laidOut(like layout: JSONValue) -> JSONValue {
        switch (self, layout) {
        case (.object(let object), .object(let model)):
            var result = JSONObject()
            for member in model { if let value = object[member.key] { result[member.key] = value.laidOut(like: member.value) } }
            for member in object where model[member.key] == nil { result[member.key] = member.value }
            return .object(result)
        case (.array(let array), .array(let model)):
            return .array(array.enumerated().map { index, element in index < model.count ? element.laidOut(like: model[index]) : element })
        case (.number(let number), .number(let literal)) where number.doubleValue == literal.doubleValue:
            return layout
        default:
            return self
        }
    }
}

/// The JSON a model value was decoded from, kept only to lay its JSON out the same way again. It never makes two values
/// different: equality and hashing ignore it.
struct JSONLayout: Sendable, Hashable {
    var source: JSONValue?

    static func == (lhs: JSONLayout, rhs: JSONLayout) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
