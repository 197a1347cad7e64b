/// `{{name}}` placeholders in parsed JSON.
///
/// A string that is exactly `{{name}}` takes the data value with its JSON type; a placeholder inside a longer string
/// is replaced by the value's text. Names are letters, digits, `_`, `.` and `-`; spaces inside the braces are allowed.
package enum Placeholders {
    /// One piece of a string: literal text or a placeholder name.
    package enum Piece: Equatable {
        case text(String)
        case placeholder(String)
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// Splits a string into text and placeholders; nil when it has none.
    package static func pieces(of string: String) -> [Piece]? {
        guard string.utf8.count >= 4, string.utf8.contains(UInt8(ascii: "{")) else { return nil }
        let bytes = Array(string.utf8)
        var pieces: [Piece] = []
        var textStart = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "{"), bytes[index + 1] == UInt8(ascii: "{") {
                var cursor = index + 2
                while cursor < bytes.count, bytes[cursor] == 0x20 { cursor += 1 }
                let nameStart = cursor
                while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
                let nameEnd = cursor
                while cursor < bytes.count, bytes[cursor] == 0x20 { cursor += 1 }
                if nameEnd > nameStart, cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "}"), bytes[cursor + 1] == UInt8(ascii: "}")
                {
                    if index > textStart { pieces.append(.text(String(decoding: bytes[textStart..<index], as: UTF8.self))) }
                    pieces.append(.placeholder(String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)))
                    index = cursor + 2
                    textStart = index
                    continue
                }
            }
            index += 1
        }
        guard !pieces.isEmpty else { return nil }
        if textStart < bytes.count { pieces.append(.text(String(decoding: bytes[textStart...], as: UTF8.self))) }
        return pieces
    }

    /// Every placeholder name used in a JSON value.
    package static func names(in value: JSONValue) -> [String] {
        var names: [String] = []
        func visit(_ value: JSONValue) {
            switch value {
            case .string(let string):
                for case .placeholder(let name) in pieces(of: string) ?? [] where !names.contains(name) { names.append(name) }
            case .array(let array):
                for element in array { visit(element) }
            case .object(let object):
                for member in object.members { visit(member.value) }
            default: break
            }
        }
        visit(value)
        return names
    }

    /// The text a value takes when interpolated into a longer string.
    package static func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let string): string
        case .number(let number): number.text
        case .bool(let bool): bool ? "true" : "false"
        case .null: ""
        case .array, .object: nil
        }
    }

    /// Replaces every placeholder. `file` names the template file in errors.
    static func substitute(_ value: JSONValue, data: JSONObject, file: String) throws(PassmintError) -> JSONValue {
        try substitute(value, data: data, file: file, path: { "" }) ?? value
    }

    /// The value with its placeholders replaced, or nil when it holds none (so that the template's parts without
    /// placeholders are shared, not copied). `path` makes the value's JSON path, only for an error.
    private static func substitute(_ value: JSONValue, data: JSONObject, file: String, path: () -> String) throws(PassmintError)
        -> JSONValue?
    {
        switch value {
        case .string(let string):
            guard let pieces = pieces(of: string) else { return nil }
            if pieces.count == 1, case .placeholder(let name) = pieces[0] {
                guard let replacement = data[name] else { throw missing(name, file: file, path: path()) }
                return replacement
            }
            var result = ""
            for piece in pieces {
                switch piece {
                case .text(let text): result += text
                case .placeholder(let name):
                    guard let replacement = data[name] else { throw missing(name, file: file, path: path()) }
                    guard let text = text(of: replacement) else {
                        throw PassmintError(
                            .invalidData,
                            "placeholder {{\(name)}} at \(path()) in \(file) is part of a longer string, so its value must be a string, number or boolean, not \(replacement.typeName)"
                        )
                    }
                    result += text
                }
            }
            return .string(result)
        case .array(let array):
            var output: [JSONValue]?
            for (index, element) in array.enumerated() {
                guard let replaced = try substitute(element, data: data, file: file, path: { "\(path())[\(index)]" }) else { continue }
                if output == nil { output = array }
                output![index] = replaced
            }
            return output.map { .array($0) }
        case .object(let object):
            var output: JSONObject?
            for member in object.members {
                let replaced = try substitute(
                    member.value, data: data, file: file,
                    path: {
                        let parent = path()
                        return parent.isEmpty ? member.key : "\(parent).\(member.key)"
                    })
                guard let replaced else { continue }
                if output == nil { output = object }
                output![member.key] = replaced
            }
            return output.map { .object($0) }
        default:
            return nil
        }
    }

    private static func missing(_ name: String, file: String, path: String) -> PassmintError {
        PassmintError(
            .invalidData,
            "placeholder {{\(name)}} (at \(path) in \(file)) has no value: give the data a value named \"\(name)\" (batch: a column or JSON key of that name, or --map Column=\(name); create: --data file or --set \(name)=…)"
        )
    }
}
