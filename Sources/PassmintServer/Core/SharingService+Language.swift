import Passmint
import PassmintPreview

extension SharingService {
    /// The language of an "Add to Apple Wallet" page and the translations of what it shows of the pass (or order):
    /// the language the reader's `Accept-Language` prefers among those the pass carries (its `<lang>.lproj/` folders
    /// holding `table`), else English when the pass carries it, else the pass's first by name (the default language of
    /// the Google mapping too); a pass with no `.lproj` gets the page's own language the reader prefers (English when
    /// none of ``PreviewWords/languages`` is asked for).
    static func pageLanguage(files: [PassFile], acceptLanguage: String?, table: String) -> (strings: PreviewStrings, language: String) {
        let tables = files.filter { $0.path.hasSuffix(".lproj/" + table) }.map { PassContents.File(path: $0.path, bytes: $0.bytes) }
        let strings = PreviewStrings(files: tables, acceptLanguage: acceptLanguage, table: table, fallback: "en")
        let language =
            strings.language ?? PreferredLanguage.best(acceptLanguage: acceptLanguage, available: ["en"] + PreviewWords.languages) ?? "en"
        return (strings, language)
    }
}
