/// Images that come with one pass's data (a member's photo, an event's artwork) and replace the template's images of
/// the same slot for that pass only.
///
/// Keys name the slot and scale as a file would, without `.png`: `thumbnail`, `thumbnail@2x`, `strip@3x`. Each image
/// is checked like a template image when it is made: a whole, decodable PNG. ``check(style:)`` then checks the pixel
/// sizes against the slot's recommended size for the pass's style, and the scales against each other.
///
/// A slot given here replaces every file of that slot in the template (all scales, and the `.lproj` copies), so a
/// device never shows the template's `thumbnail@3x.png` beside the member's `thumbnail@2x.png`.
public struct PassImages: Sendable {
    /// The images as pass files (`thumbnail@2x.png`), sorted by path.
    public let files: [PassFile]
    /// Where each image came from, by file path: how errors name it (`row 3: image:thumbnail@2x (photos/zoe.png)`,
    /// `images.thumbnail@2x`).
    private let labels: [String: String]

    /// Image slots Wallet shows.
    public static let slots: Set<String> = [
        "icon", "logo", "strip", "thumbnail", "background", "footer", "artwork", "primaryLogo", "secondaryLogo",
        "personalizationLogo",
    ]

    /// No images: every file comes from the template.
    public static let none = PassImages(files: [], labels: [:])

    private init(files: [PassFile], labels: [String: String]) {
        self.files = files
        self.labels = labels
    }

    /// Checks each image: its key names a slot and a scale, and its bytes are a whole PNG file.
    ///
    /// - Parameter images: slot key (`thumbnail@2x`) → PNG bytes, and the label that names the image in errors.
    /// - Throws: ``PassmintError/Code/invalidImage`` naming the label, for an unknown slot or a file that is not a PNG.
    public init(_ images: [(key: String, bytes: [UInt8], label: String)]) throws(PassmintError) {
        var files: [(file: PassFile, label: String)] = []
        for image in images { files.append((try Self.file(key: image.key, bytes: image.bytes, label: image.label), image.label)) }
        try self.init(files: files)
    }

    /// Images already made with ``file(key:bytes:label:)`` (a batch makes each shared file once).
    ///
    /// - Throws: ``PassmintError/Code/invalidImage`` when two images fill the same file.
    public init(files images: [(file: PassFile, label: String)]) throws(PassmintError) {
        var labels: [String: String] = [:]
        for image in images {
            if let earlier = labels[image.file.path] {
                throw PassmintError(
                    .invalidImage, "\(image.label): \(image.file.path) is given twice (also as \(earlier)): give it once")
            }
            labels[image.file.path] = image.label
        }
        self.init(files: images.map(\.file).sorted { $0.path < $1.path }, labels: labels)
    }

    /// The most a pass's own image may weigh (a spreadsheet cell's file, an upload to the issuing API): far above
    /// what a 3x image of the largest slot needs, far below what a PNG padded with a huge text chunk would cost every
    /// pass that names it.
    public static let maximumFileBytes = 4 << 20

    /// One image as a pass file (`thumbnail@2x.png`): checks that `key` names a slot Wallet shows and a scale, that
    /// it weighs at most ``maximumFileBytes`` and that `bytes` are a whole PNG file.
    ///
    /// - Throws: ``PassmintError/Code/invalidImage`` naming `label`.
    public static func file(key: String, bytes: [UInt8], label: String) throws(PassmintError) -> PassFile {
        let key = key.hasSuffix(".png") ? String(key.dropLast(4)) : key
        guard let name = ImageName(path: key + ".png"), name.localization == nil, slots.contains(name.name) else {
            throw PassmintError(
                .invalidImage,
                "\(label): \(key) is not an image Wallet shows: name one of \(slots.sorted().joined(separator: ", ")), with @2x or @3x for those scales (e.g. thumbnail@2x)"
            )
        }
        guard !bytes.isEmpty else {
            throw PassmintError(.invalidImage, "\(label) is empty: give a PNG image, or leave it out to keep the template's \(key).png")
        }
        guard bytes.count <= maximumFileBytes else {
            throw PassmintError(
                .invalidImage,
                "\(label) weighs \(bytes.count) bytes, more than the \(maximumFileBytes) bytes a pass's image may have: "
                    + "save it smaller (a 3x thumbnail needs a few hundred KB at most) and without metadata")
        }
        try checkDeclaredSize(bytes, name: name, label: label)
        return try PassFile(path: key + ".png", bytes: bytes, label: label)
    }

    /// Refuses an image whose PNG header (IHDR) declares more pixels than its slot may have at its scale in any style,
    /// before a byte of it is decoded: a small file may declare 4096×4096 pixels of 16 bits that take seconds to
    /// inflate. ``check(style:)`` checks the decoded size against the pass's own style later. A header that cannot be
    /// read is left to the decoder, which names what is wrong.
    static func checkDeclaredSize(_ bytes: [UInt8], name: ImageName, label: String) throws(PassmintError) {
        guard let declared = PNGInfo.declaredSize(bytes), let largest = largestSize(of: name.name) else { return }
        let width = largest.width * name.scale
        let height = largest.height * name.scale
        guard declared.width > width || declared.height > height else { return }
        throw PassmintError(
            .invalidImage,
            "\(label) is \(declared.width)×\(declared.height) px; \(name.name)\(name.scale > 1 ? "@\(name.scale)x" : "").png should be at most "
                + "\(width)×\(height) px: resize it to fit (read from the PNG header; the image was not decoded)")
    }

    /// The largest size a slot has in any style, in points.
    static func largestSize(of slot: String) -> (width: Int, height: Int)? {
        let sizes = [nil, "eventTicket"].compactMap { FileRules.recommendedSize(slot, style: $0) }
        guard !sizes.isEmpty else { return nil }
        return (sizes.map(\.width).max()!, sizes.map(\.height).max()!)
    }

    public var isEmpty: Bool { files.isEmpty }

    /// The slots these images replace.
    public var slotNames: Set<String> { Set(files.compactMap { ImageName(path: $0.path)?.name }) }

    /// The pass's files: `templateFiles` without any file of a slot given here, then these images.
    public func applied(to templateFiles: [PassFile]) -> [PassFile] {
        guard !isEmpty else { return templateFiles }
        let replaced = slotNames
        var output = templateFiles.filter { file in ImageName(path: file.path).map { !replaced.contains($0.name) } ?? true }
        output.append(contentsOf: files)
        return output
    }

    /// Checks the images against the pass they go into: not larger than a slot's maximum size, exactly a slot's size
    /// where Wallet asks for one, and each @2x/@3x image that scale of the @1x one.
    ///
    /// - Parameter style: the pass style key (`storeCard`, `eventTicket`, …), which sets the strip's size.
    /// - Throws: ``PassmintError/Code/invalidImage`` naming the image and the size to make it.
    public func check(style: String?) throws(PassmintError) {
        for file in files {
            guard let name = ImageName(path: file.path), let info = file.png,
                let size = FileRules.recommendedSize(name.name, style: style)
            else { continue }
            let width = size.width * name.scale
            let height = size.height * name.scale
            let wrong = size.isMaximum ? (info.width > width || info.height > height) : (info.width != width || info.height != height)
            if wrong {
                throw PassmintError(
                    .invalidImage,
                    "\(labels[file.path] ?? file.path) is \(info.width)×\(info.height) px; \(file.path) should be \(size.isMaximum ? "at most " : "")\(width)×\(height) px: resize it\(size.isMaximum ? " to fit" : "")"
                )
            }
        }
        let byName = Dictionary(grouping: files.compactMap { file in ImageName(path: file.path).map { (name: $0, file: file) } }) {
            $0.name.name
        }
        for variants in byName.values {
            guard let base = variants.first(where: { $0.name.scale == 1 }), let baseInfo = base.file.png else { continue }
            for variant in variants where variant.name.scale > 1 {
                guard let info = variant.file.png else { continue }
                let scale = variant.name.scale
                if abs(info.width - baseInfo.width * scale) > scale || abs(info.height - baseInfo.height * scale) > scale {
                    throw PassmintError(
                        .invalidImage,
                        "\(labels[variant.file.path] ?? variant.file.path) is \(info.width)×\(info.height) px, not \(scale)× \(labels[base.file.path] ?? base.file.path) (\(baseInfo.width)×\(baseInfo.height)): make it \(baseInfo.width * scale)×\(baseInfo.height * scale) px"
                    )
                }
            }
        }
    }
}
