/// What a file of a template folder is, by its path in the folder: which of Wallet's files it is, and so how large
/// it may be before Passmint reads it. A file Wallet does not read is ``unknown``: never read, never shipped.
package enum TemplateFileKind: Sendable, Equatable {
    /// `pass.json`, `order.json`, `personalization.json`, `strings.json` (read by Passmint, not shipped), sample data.
    case json
    /// A PNG image, at the top or in a `<language>.lproj` folder.
    case image
    /// `<language>.lproj/pass.strings` (passes) or `<language>.lproj/order.strings` (orders).
    case strings
    /// Anything else: Wallet does not read it, so it is refused rather than shipped in every pass.
    case unknown

    /// Which package a template makes.
    package enum Package: Sendable {
        case pass, order

        /// The JSON file the folder must hold.
        var mainFile: String { self == .pass ? "pass.json" : "order.json" }
        /// The translations file in each `.lproj` folder.
        var stringsFile: String { self == .pass ? "pass.strings" : "order.strings" }
        /// The words for the package in messages.
        var noun: String { self == .pass ? "a pass" : "an order" }
    }

    /// The kind of the file at `path` (relative to the folder, `fr.lproj/logo.png`) in a template of `package`.
    package init(path: String, in package: Package) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let name = parts.last.map(String.init) ?? path
        let localized = parts.count == 2 && parts[0].hasSuffix(".lproj") && parts[0].count > ".lproj".count
        guard parts.count == 1 || localized else {
            self = .unknown
            return
        }
        if name.lowercased().hasSuffix(".png") {
            self = .image
        } else if localized {
            self = name == package.stringsFile ? .strings : .unknown
        } else if name == package.mainFile || name == TemplateStrings.fileName
            || (package == .pass && name == "personalization.json")
        {
            self = .json
        } else {
            self = .unknown
        }
    }

    /// The largest file of this kind Passmint reads: for an image, far above any image Wallet shows (a @3x strip is
    /// about 1 MB at most), far below what would hurt a batch or the service; for a JSON or `.strings` file, room for a
    /// `strings.json` of 100,000 keys in two languages.
    package var maximumBytes: Int {
        switch self {
        case .image: PassImages.maximumFileBytes
        case .json, .strings: FileIO.maximumTextBytes
        case .unknown: 0
        }
    }

    /// What a file of this kind is, in messages ("an image").
    package var noun: String {
        switch self {
        case .image: "an image"
        case .json: "a JSON file"
        case .strings: "a .strings file"
        case .unknown: "a file Wallet does not read"
        }
    }
}
