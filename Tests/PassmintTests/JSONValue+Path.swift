@testable import Passmint

extension JSONValue {
    /// Sets (or with nil removes) the value at a dotted path such as `eventTicket.primaryFields[0].value`;
    /// an index one past the end appends.
    mutating func set(_ path: String, _ value: JSONValue?) {
        var components: [String] = []
        for part in path.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                components.append(String(rest[..<bracket]))
                rest = rest[bracket...]
                while let close = rest.firstIndex(of: "]") {
                    components.append(String(rest[rest.index(after: rest.startIndex)..<close]) + "#")
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                components.append(String(rest))
            }
        }
        set(components[...], value)
    }

    private mutating func set(_ components: ArraySlice<String>, _ value: JSONValue?) {
        guard let first = components.first else { return }
        let rest = components.dropFirst()
        if first.hasSuffix("#"), let index = Int(first.dropLast()), case .array(var array) = self {
            if rest.isEmpty {
                if let value {
                    if index < array.count { array[index] = value } else { array.append(value) }
                } else if index < array.count {
                    array.remove(at: index)
                }
            } else if index < array.count {
                array[index].set(rest, value)
            }
            self = .array(array)
        } else if case .object(var object) = self {
            if rest.isEmpty {
                object[first] = value
            } else {
                var child = object[first] ?? .object(JSONObject())
                child.set(rest, value)
                object[first] = child
            }
            self = .object(object)
        }
    }

    mutating func rename(_ key: String, to newKey: String) {
        guard case .object(var object) = self, let value = object[key] else { return }
        object[key] = nil
        object[newKey] = value
        self = .object(object)
    }
}
