extension VerificationReport {
    /// Reads the archive's entries and reports the `zip` check: nil when the archive cannot be read, and nothing
    /// further can be checked.
    mutating func readArchive(_ bytes: [UInt8], source: String) -> [ZipArchive.Entry]? {
        do {
            let entries = try ZipArchive.read(bytes, source: source)
            add("zip", .passed, "\(entries.count) entries, CRCs correct")
            return entries
        } catch {
            add("zip", .failed, error.message)
            return nil
        }
    }
}
