/// `.pkpasses` bundles: several signed passes in one download (see <doc:PassFormat>).
///
/// A bundle is a ZIP archive whose entries are `.pkpass` files, stored as they are (a pass is already compressed),
/// at most ``maximumPasses`` of them and at most ``maximumBytes`` in all. Safari adds every pass of a bundle at once;
/// apps must unzip it and add the passes one by one.
///
/// ```swift
/// let bundle = try PassBundle.make([PassBundle.Item(name: "ticket-1.pkpass", archive: first.archive),
///                                   PassBundle.Item(name: "ticket-2.pkpass", archive: second.archive)])
/// try FileIO.writeAtomically(bundle, to: "tickets.pkpasses")
/// ```
public enum PassBundle {
    /// The MIME type to serve a bundle with.
    public static let mimeType = "application/vnd.apple.pkpasses"
    /// Wallet adds at most 10 passes from one bundle.
    public static let maximumPasses = 10
    /// A bundle may weigh at most 150 MB (counted as 150,000,000 bytes, the stricter reading).
    public static let maximumBytes = 150_000_000

    /// One pass to put into a bundle.
    public struct Item: Sendable {
        /// The entry name inside the bundle, e.g. `ticket-1.pkpass`; nil for `pass<index>.pkpass`. Only the last path
        /// component is kept, `.pkpass` is added when missing, and a name already used gets `-2`, `-3`, … appended.
        public var name: String?
        /// The signed `.pkpass` archive bytes.
        public var archive: [UInt8]
        /// Names the pass in errors (a file path); defaults to ``name``, then the entry name.
        public var source: String?

        public init(name: String? = nil, archive: [UInt8], source: String? = nil) {
            self.name = name
            self.archive = archive
            self.source = source
        }

        /// A built pass, named after its serial number (`<serial>.pkpass`, made file-system safe).
        public init(_ pass: BuiltPass) {
            self.init(name: SerialFileName.fileName(for: pass.serialNumber), archive: pass.archive)
        }
    }

    /// Builds a `.pkpasses` archive from 1 to ``maximumPasses`` passes.
    ///
    /// - Throws: ``PassmintError/Code/invalidData`` when there are no passes, more than ``maximumPasses``, or more than
    ///   ``maximumBytes`` in all; ``PassmintError/Code/invalidPass`` naming the input that is not a readable pass (a ZIP
    ///   archive with a `pass.json` object at its root).
    public static func make(_ items: [Item]) throws(PassmintError) -> [UInt8] {
        guard !items.isEmpty else {
            throw PassmintError(.invalidData, "a .pkpasses bundle needs at least one pass: give 1 to \(maximumPasses) .pkpass files")
        }
        guard items.count <= maximumPasses else {
            throw PassmintError(
                .invalidData,
                "a .pkpasses bundle holds at most \(maximumPasses) passes, but \(items.count) were given: split them into \((items.count + maximumPasses - 1) / maximumPasses) bundles"
            )
        }
        let total = items.reduce(0) { $0 + $1.archive.count }
        guard total <= maximumBytes else { throw tooBig(total, items: items) }

        let names = entryNames(for: items)
        var entries: [ZipArchive.Entry] = []
        for (index, item) in items.enumerated() {
            try checkIsPass(item.archive, source: item.source ?? item.name ?? names[index])
            entries.append(ZipArchive.Entry(name: names[index], bytes: item.archive, compressed: false))
        }
        let bundle = try ZipArchive.make(entries)
        guard bundle.count <= maximumBytes else { throw tooBig(bundle.count, items: items) }
        return bundle
    }

    /// One pass found in a bundle.
    public struct Entry: Sendable {
        /// The entry name, e.g. `ticket-1.pkpass`.
        public var name: String
        /// The `.pkpass` bytes.
        public var archive: [UInt8]
    }

    /// True when `bytes` look like a bundle rather than a pass: a ZIP archive without `pass.json` whose entries are
    /// `.pkpass` files. (Use the `.pkpasses` file extension to decide when you have it.)
    public static func looksLikeBundle(_ bytes: [UInt8]) -> Bool {
        guard let entries = try? ZipArchive.read(bytes, source: "archive", limits: .bundle), !entries.isEmpty else { return false }
        return !entries.contains { $0.name == "pass.json" } && entries.allSatisfy { $0.name.lowercased().hasSuffix(".pkpass") }
    }

    /// Opens a `.pkpasses` bundle: every entry must be a `.pkpass` file, with at most ``maximumPasses`` of them and
    /// at most ``maximumBytes`` in all, as Wallet requires. The passes themselves are not checked here (verify each).
    ///
    /// - Throws: ``PassmintError/Code/archiveFailed`` for an unreadable archive, ``PassmintError/Code/invalidData``
    ///   naming the rule a bundle breaks.
    public static func read(_ bytes: [UInt8], source: String) throws(PassmintError) -> [Entry] {
        guard bytes.count <= maximumBytes else {
            throw PassmintError(
                .invalidData,
                "\(source) weighs \(megabytes(bytes.count)) but a .pkpasses bundle may hold at most \(megabytes(maximumBytes)); Wallet refuses it"
            )
        }
        let entries = try ZipArchive.read(bytes, source: source, limits: .bundle).filter { !$0.name.hasSuffix("/") }
        guard !entries.isEmpty else { throw PassmintError(.invalidData, "\(source) is an empty bundle: it holds no .pkpass file") }
        if let stray = entries.first(where: { !$0.name.lowercased().hasSuffix(".pkpass") }) {
            throw PassmintError(.invalidData, "\(source) holds \(stray.name), but a .pkpasses bundle may only hold .pkpass files")
        }
        guard entries.count <= maximumPasses else {
            throw PassmintError(
                .invalidData, "\(source) holds \(entries.count) passes but Wallet adds at most \(maximumPasses) from one bundle: split it")
        }
        return entries.map { Entry(name: $0.name, archive: $0.bytes) }
    }

    /// The entry names `make` uses for `items`: each item's name (last path component, with `.pkpass`) or
    /// `pass<index>.pkpass`, made unique.
    public static func entryNames(for items: [Item]) -> [String] {
        var used: Set<String> = []
        return items.enumerated().map { index, item in
            var base = item.name.map { String($0.split(separator: "/").last ?? "") } ?? ""
            if base.lowercased().hasSuffix(".pkpass") { base = String(base.dropLast(".pkpass".count)) }
            if base.isEmpty || base.hasPrefix(".") { base = "pass\(index)" }
            var candidate = base + ".pkpass"
            var counter = 2
            while used.contains(candidate.lowercased()) {
                candidate = "\(base)-\(counter).pkpass"
                counter += 1
            }
            used.insert(candidate.lowercased())
            return candidate
        }
    }

    /// Throws unless `archive` is a ZIP with a `pass.json` object at its root.
    static func checkIsPass(_ archive: [UInt8], source: String) throws(PassmintError) {
        let entries: [ZipArchive.Entry]
        do {
            entries = try ZipArchive.read(archive, source: source)
        } catch {
            throw PassmintError(
                .invalidPass, "\(source) is not a pass: it is not a readable ZIP archive (\(error.message)); give signed .pkpass files")
        }
        guard let pass = entries.first(where: { $0.name == "pass.json" }) else {
            throw PassmintError(
                .invalidPass,
                "\(source) is not a pass: the archive has no pass.json at its root; give signed .pkpass files (passmint create makes them)")
        }
        guard (try? JSONParser.parse(pass.bytes, options: .init(allowTrailingCommas: true)))?.value.objectValue != nil else {
            throw PassmintError(
                .invalidPass, "\(source) is not a pass: its pass.json is not a JSON object; check it with passmint lint \(source)")
        }
    }

    private static func tooBig(_ size: Int, items: [Item]) -> PassmintError {
        let names = entryNames(for: items)
        let largest = items.enumerated().sorted { $0.element.archive.count > $1.element.archive.count }.prefix(3)
            .map { "\($0.element.source ?? $0.element.name ?? names[$0.offset]) \(megabytes($0.element.archive.count))" }
        return PassmintError(
            .invalidData,
            "the passes add up to \(megabytes(size)) (\(size) bytes) but a .pkpasses bundle may hold at most \(megabytes(maximumBytes)) (\(maximumBytes) bytes); largest: \(largest.joined(separator: ", ")). Make the images smaller or split the passes into several bundles"
        )
    }

    /// `12.3 MB` (decimal megabytes, rounded to a tenth).
    public static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
