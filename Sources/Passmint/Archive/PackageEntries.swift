/// Where a Wallet package (a `.pkpass` or an `.order`) may hold files: at its root, or in a `<language>.lproj` folder
/// at its root. `verify` and `lint` of an archive judge every entry by these rules.
///
/// An entry is **unsafe** when a reader unpacking the archive could write it outside the folder it unpacks into, or
/// to something else than a file there: an absolute name (`/evil.png`), a `..` or `.` step (`../evil.png`), a
/// backslash (a folder separator on Windows, `..\evil.png`) or a symbolic link. Such an archive is refused, whatever
/// its manifest says. An entry is **stray** when it is somewhere Wallet does not read: a folder other than
/// `<language>.lproj/`, a file deeper than one folder or in a folder not named `.lproj`, macOS litter (`.DS_Store`,
/// `__MACOSX/`). A NUL byte in a name is refused as the archive is read (``ZipArchive/read(_:source:limits:)``).
public enum PackageEntries {
    public enum Problem: Sendable, Hashable {
        /// Unsafe to unpack, with the reason (`an absolute name`, `a symbolic link`, …).
        case unsafe(String)
        /// Somewhere Wallet does not read.
        case stray
    }

    /// `entries` sorted by these rules: the bytes of every file by name (stray ones included, so that their manifest
    /// entries are checked; no folders, nothing unsafe), the names of stray entries (folders included), and each unsafe
    /// entry as ``describe(_:unsafe:)`` writes it.
    static func sort(_ entries: [ZipArchive.Entry]) -> (files: [String: [UInt8]], stray: [String], unsafe: [String]) {
        var files: [String: [UInt8]] = [:]
        var stray: [String] = []
        var unsafe: [String] = []
        for entry in entries {
            switch problem(entry) {
            case .unsafe(let reason)?:
                unsafe.append(describe(entry.name, unsafe: reason))
                continue
            case .stray?: stray.append(entry.name)
            case nil: break
            }
            if !entry.name.hasSuffix("/") { files[entry.name] = entry.bytes }
        }
        return (files, stray, unsafe)
    }

    /// What is wrong with `entry`'s place in a Wallet package, or nil when it is a file (or `.lproj` folder) Wallet
    /// reads.
    public static func problem(_ entry: ZipArchive.Entry) -> Problem? {
        if let reason = unsafeReason(entry) { return .unsafe(reason) }
        return isStray(entry.name) ? .stray : nil
    }

    /// Why unpacking `entry` could reach outside the package folder, or nil.
    static func unsafeReason(_ entry: ZipArchive.Entry) -> String? {
        let name = entry.name
        if entry.isSymbolicLink { return "a symbolic link" }
        if name.hasPrefix("/") { return "an absolute name" }
        if name.contains("\\") { return "a backslash, a folder separator on Windows" }
        if name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." }) {
            return "a .. or . step"
        }
        return nil
    }

    /// Whether `name` is somewhere Wallet does not read.
    static func isStray(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        if name.hasSuffix("/") { return !(parts.count == 2 && parts[0].hasSuffix(".lproj")) }
        if parts.contains(where: \.isEmpty) || parts.last == ".DS_Store" || parts.first == "__MACOSX" { return true }
        return parts.count > 2 || (parts.count == 2 && !parts[0].hasSuffix(".lproj"))
    }

    /// One line about an unsafe entry, for a report: the name and the reason.
    static func describe(_ name: String, unsafe reason: String) -> String { "\"\(MessageText.cut(name))\" (\(reason))" }

    /// The `entries` check's detail for unsafe entries, each described by ``describe(_:unsafe:)``.
    static func unsafeDetail(_ unsafe: [String]) -> String {
        "entries a reader could unpack outside the package folder: \(unsafe.joined(separator: ", ")); remove them and sign again"
    }

    /// The fix for a stray entry.
    static let strayFix = "keep files at the root of the package or in a <language>.lproj folder there; remove the rest and sign again"
}
