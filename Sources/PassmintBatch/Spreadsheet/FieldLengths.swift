public import Passmint

/// How long a row's values may be where the card shows them. Wallet cuts a long text on the front of the card: a value
/// over ``frontWarning`` (``headerWarning`` in a header field) is a warning listed with its rows. A value no card can
/// hold, over ``refusal`` characters (``backRefusal`` for a value shown only in back fields, which scroll), makes its
/// row fail, naming the row and the column. See docs/limits.md.
public struct FieldLengths: Sendable {
    /// Characters a header field shows before Wallet cuts it.
    public static let headerWarning = 20
    /// Characters a primary, secondary or auxiliary field (or the logo text) shows before Wallet cuts it.
    public static let frontWarning = 40
    /// Characters a value may have, but one shown only in back fields.
    public static let refusal = 2_000
    /// Characters a value shown only in back fields may have.
    public static let backRefusal = 10_000

    /// Where a placeholder is shown on the front, and how much of it fits: the tightest place it is used in.
    public struct Front: Sendable, Equatable {
        /// "a header field", "a primary field", …
        public var place: String
        public var characters: Int
    }

    /// The placeholders shown on the front, with their tightest place.
    public let front: [String: Front]
    /// The placeholders used only in back fields.
    public let backOnly: Set<String>
    /// The template's placeholders: the values checked.
    let placeholders: Set<String>

    /// Nothing checked (no template).
    public init() {
        front = [:]
        backOnly = []
        placeholders = []
    }

    public init(template: PassTemplate) {
        var front: [String: Front] = [:]
        var back: Set<String> = []
        var elsewhere: Set<String> = []
        func note(_ value: JSONValue?, _ place: String, _ characters: Int) {
            guard let value else { return }
            for name in Placeholders.names(in: value) where front[name].map({ $0.characters > characters }) ?? true {
                front[name] = Front(place: place, characters: characters)
            }
        }
        let pass = template.passJSON.objectValue ?? [:]
        for style in PassJSONValidator.styleKeys {
            guard let fields = pass[style] else { continue }
            note(fields["headerFields"], "a header field", Self.headerWarning)
            for area in ["primary", "secondary", "auxiliary"] {
                note(fields["\(area)Fields"], "a\(area == "auxiliary" ? "n" : "") \(area) field", Self.frontWarning)
            }
            if let backFields = fields["backFields"] { back.formUnion(Placeholders.names(in: backFields)) }
        }
        note(pass["logoText"], "the logo text", Self.frontWarning)
        for member in pass.members where !PassJSONValidator.styleKeys.contains(member.key) {
            elsewhere.formUnion(Placeholders.names(in: member.value))
        }
        for style in PassJSONValidator.styleKeys {
            for member in pass[style]?.objectValue?.members ?? [] where member.key != "backFields" {
                elsewhere.formUnion(Placeholders.names(in: member.value))
            }
        }
        self.front = front
        placeholders = Set(template.placeholders)
        backOnly = back.subtracting(elsewhere).subtracting(front.keys)
    }

    /// The most characters `placeholder`'s value may have.
    public func limit(of placeholder: String) -> Int {
        backOnly.contains(placeholder) ? Self.backRefusal : Self.refusal
    }

    /// Why a text is too long for `placeholder` to be issued at all; nil when it is not.
    func refusal(_ text: String, placeholder: String) -> (characters: Int, limit: Int)? {
        guard placeholders.contains(placeholder) else { return nil }
        let limit = limit(of: placeholder)
        guard text.utf8.count > limit else { return nil }  // a character is at least one byte
        let characters = text.count
        return characters > limit ? (characters, limit) : nil
    }

    /// The front place that cuts a text of `placeholder`; nil when it fits (or is not on the front).
    func cut(_ text: String, placeholder: String) -> Front? {
        guard let front = front[placeholder], text.utf8.count > front.characters, text.count > front.characters else { return nil }
        return front
    }
}
