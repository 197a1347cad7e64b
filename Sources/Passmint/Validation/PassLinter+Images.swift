/// Rules on the images of a pass: the icon Wallet requires, the scales present, the recommended sizes, and the
/// images each style shows.
extension FileRules {
    mutating func checkImages(_ images: [(file: PassContents.File, name: ImageName, info: PNGInfo)]) {
        let topLevel = images.filter { $0.name.localization == nil }
        checkIcon(images)
        // Group by localization and name, then look at the scales present.
        var groups: [String: [(scale: Int, info: PNGInfo, path: String)]] = [:]
        for image in images {
            let prefix = image.name.localization.map { "\($0).lproj/" } ?? ""
            groups[prefix + image.name.name, default: []].append((image.name.scale, image.info, image.file.path))
        }
        for (key, variants) in groups.sorted(by: { $0.key < $1.key }) {
            let name = String(key.split(separator: "/").last!)
            let scales = Set(variants.map(\.scale))
            for scale in [1, 2, 3] where !scales.contains(scale) {
                let missing = scale == 1 ? "\(key).png" : "\(key)@\(scale)x.png"
                warning(
                    "image-scale-missing", missing,
                    "\(key) has no @\(scale)x version; devices with that screen scale it and it looks blurry",
                    fix: "add \(missing)")
            }
            if let size = recommendedSize(name) {
                for variant in variants {
                    let width = size.width * variant.scale
                    let height = size.height * variant.scale
                    let tooBig = variant.info.width > width || variant.info.height > height
                    if size.isMaximum ? tooBig : (variant.info.width != width || variant.info.height != height) {
                        warning(
                            "image-size", variant.path,
                            "\(variant.info.width)×\(variant.info.height) px; the recommended size at @\(variant.scale)x is \(size.isMaximum ? "at most " : "")\(width)×\(height) px",
                            fix: "resize it to \(size.isMaximum ? "fit within " : "")\(width)×\(height) px")
                    }
                }
            }
            if let base = variants.first(where: { $0.scale == 1 }) {
                for variant in variants where variant.scale > 1 {
                    let expectedWidth = base.info.width * variant.scale
                    let expectedHeight = base.info.height * variant.scale
                    if abs(variant.info.width - expectedWidth) > variant.scale || abs(variant.info.height - expectedHeight) > variant.scale
                    {
                        warning(
                            "image-scale-mismatch", variant.path,
                            "\(variant.info.width)×\(variant.info.height) px is not \(variant.scale)× \(base.path) (\(base.info.width)×\(base.info.height))",
                            fix: "make it \(expectedWidth)×\(expectedHeight) px")
                    }
                }
            }
        }
        guard let style else { return }
        let used = imagesUsed(by: style)
        let names = Set(topLevel.map(\.name.name)).union(images.map(\.name.name))
        for name in names.sorted() where !used.contains(name) {
            warning("image-unused", "\(name).png", "a \(style) does not show \(name) images", fix: "remove \(name)*.png from the pass")
        }
        if style == "eventTicket" && names.contains("strip") && (names.contains("background") || names.contains("thumbnail")) {
            warning(
                "event-ticket-strip-and-background", "strip.png",
                "an event ticket with a strip image does not show its background or thumbnail",
                fix: "use either a strip, or a background and/or thumbnail")
        }
    }

    /// Wallet needs `icon.png` itself (the @1x file), at the top level or in every `.lproj` folder; @2x and @3x
    /// versions alone are not enough.
    mutating func checkIcon(_ images: [(file: PassContents.File, name: ImageName, info: PNGInfo)]) {
        let fix = "add icon.png (38×38), icon@2x.png (76×76) and icon@3x.png (114×114)"
        let icons = images.filter { $0.name.name == "icon" && $0.name.scale == 1 }
        if icons.contains(where: { $0.name.localization == nil }) { return }
        let localizations = Set(
            files.compactMap { file -> String? in
                let components = file.path.split(separator: "/")
                return components.count == 2 && components[0].hasSuffix(".lproj") ? String(components[0].dropLast(6)) : nil
            })
        let localized = Set(icons.compactMap(\.name.localization))
        if !localized.isEmpty {
            for language in localizations.subtracting(localized).sorted() {
                error(
                    "icon-missing", "\(language).lproj/icon.png",
                    "there is no icon.png at the top level nor in \(language).lproj; Wallet refuses the pass",
                    fix: "add icon.png at the top level (38×38, with @2x and @3x)")
            }
            return
        }
        let others = images.filter { $0.name.name == "icon" }.map(\.file.path).sorted()
        if others.isEmpty {
            error("icon-missing", "icon.png", "the pass has no icon; Wallet refuses it", fix: fix)
        } else {
            error(
                "icon-missing", "icon.png",
                "the pass has \(others.joined(separator: ", ")) but no icon.png; Wallet needs icon.png itself and refuses the pass",
                fix: fix)
        }
    }
}
