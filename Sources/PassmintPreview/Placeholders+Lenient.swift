import Passmint

extension Placeholders {
    /// Replaces the placeholders that `data` has a value for and leaves the others as they are (`{{name}}`), for a
    /// preview of a template that does not render: it shows what it can and lint names the rest.
    static func fillLeniently(_ value: JSONValue, data: JSONObject) -> JSONValue {
        switch value {
        case .string(let string):
            guard let pieces = pieces(of: string) else { return value }
            if pieces.count == 1, case .placeholder(let name) = pieces[0], let replacement = data[name] { return replacement }
            var result = ""
            for piece in pieces {
                switch piece {
                case .text(let text): result += text
                case .placeholder(let name): result += data[name].flatMap { text(of: $0) } ?? "{{\(name)}}"
                }
            }
            return .string(result)
        case .array(let array):
            return .array(array.map { fillLeniently($0, data: data) })
        case .object(let object):
            var output = object
            for member in object.members { output[member.key] = fillLeniently(member.value, data: data) }
            return .object(output)
        default:
            return value
        }
    }
}
