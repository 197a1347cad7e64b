import Foundation

/// Which of the languages on offer (a pass's `.lproj` folders, or the words ``PreviewWords`` knows) a reader gets: the
/// one they asked for (`--lang`, or an `Accept-Language` header with its q-values), matched without regard to case,
/// then by its language part (`de-AT` takes `de`), then by a regional variant of it (`pt` takes `pt-BR`).
package enum PreferredLanguage {
    /// The language ranges of an `Accept-Language` header, most wanted first (`de-DE,de;q=0.9,en;q=0.8` →
    /// `["de-DE", "de", "en"]`): ranges with `q=0` and `*` are left out, equal q-values keep their order.
    package static func ranges(acceptLanguage header: String?) -> [String] {
        guard let header else { return [] }
        var weighted: [(range: String, quality: Double, index: Int)] = []
        for (index, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first, !range.isEmpty, range != "*",
                range.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0 { weighted.append((range, min(quality, 1), index)) }
        }
        return weighted.sorted { $0.quality != $1.quality ? $0.quality > $1.quality : $0.index < $1.index }.map(\.range)
    }

    /// The language of `available` that `requested` names, nil when none does.
    package static func match(_ requested: String, in available: [String]) -> String? {
        let wanted = requested.lowercased().replacingOccurrences(of: "_", with: "-")
        let base = String(wanted.split(separator: "-").first ?? "")
        guard !base.isEmpty else { return nil }
        func normalized(_ language: String) -> String { language.lowercased().replacingOccurrences(of: "_", with: "-") }
        return available.first { normalized($0) == wanted } ?? available.first { normalized($0) == base }
            ?? available.first { normalized($0).hasPrefix(base + "-") }
    }

    /// The first language of `available` that a range of `acceptLanguage` names, in the header's order of preference;
    /// nil when none does (the caller's default applies).
    package static func best(acceptLanguage: String?, available: [String]) -> String? {
        ranges(acceptLanguage: acceptLanguage).lazy.compactMap { match($0, in: available) }.first
    }
}
