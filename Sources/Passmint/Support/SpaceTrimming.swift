import Foundation

extension String {
    /// The string without leading and trailing spaces and tabs (`CharacterSet.whitespaces`), returned as it is, with
    /// no Foundation call, when it has none: batches trim several values of every row, and almost none need it.
    package var trimmingSpaces: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        let spaces = CharacterSet.whitespaces
        guard spaces.contains(first) || spaces.contains(last) else { return self }
        return trimmingCharacters(in: spaces)
    }
}
