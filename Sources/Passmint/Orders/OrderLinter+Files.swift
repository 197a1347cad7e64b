import Foundation

extension OrderCheck {
    /// The smallest side, in pixels, Passmint recommends for an order's images (logos and line-item pictures, shown
    /// at up to about 30 points at 3x).
    static let recommendedImagePixels = 90

    /// The images `order.json` names must be in the package, be PNG files and be square; `.lproj` folders hold
    /// `order.strings`, not `pass.strings`.
    mutating func files(_ files: [PassContents.File], order json: JSONObject) {
        var references: [(path: String, name: String)] = []
        if let logo = json["merchant"]?["logo"]?.stringValue { references.append(("merchant.logo", logo)) }
        if let logo = json["orderProvider"]?["logo"]?.stringValue { references.append(("orderProvider.logo", logo)) }
        for (index, item) in (json["lineItems"]?.arrayValue ?? []).enumerated() {
            if let image = item["image"]?.stringValue { references.append(("lineItems[\(index)].image", image)) }
        }
        for (index, fulfillment) in (json["fulfillments"]?.arrayValue ?? []).enumerated() {
            for (itemIndex, item) in (fulfillment["lineItems"]?.arrayValue ?? []).enumerated() {
                if let image = item["image"]?.stringValue {
                    references.append(("fulfillments[\(index)].lineItems[\(itemIndex)].image", image))
                }
            }
        }
        for reference in references { image(reference.name, at: reference.path, in: files) }
        for file in files where file.path.hasSuffix(".lproj/pass.strings") {
            warning(
                "order-strings-name", "", "an order's translations are read from order.strings; Wallet ignores pass.strings",
                fix: "rename it to \(file.path.replacingOccurrences(of: "pass.strings", with: "order.strings"))", file: file.path)
        }
    }

    /// The files an image name stands for: the name itself and its `@2x`/`@3x` variants, at the top level or in any
    /// `.lproj` folder.
    private mutating func image(_ name: String, at path: String, in files: [PassContents.File]) {
        let stem = name.hasSuffix(".png") ? String(name.dropLast(4)) : name
        let names = Set([stem + ".png", stem + "@2x.png", stem + "@3x.png", name])
        let matches = files.filter { file in
            let last = file.path.split(separator: "/").last.map(String.init) ?? file.path
            return names.contains(file.path) || (file.path.contains(".lproj/") && names.contains(last))
        }
        guard !matches.isEmpty else {
            error(
                "order-image-missing", path, "the image \"\(MessageText.cut(name))\" is not in the order package",
                fix: "add \(stem).png (and \(stem)@2x.png, \(stem)@3x.png) to the template, or fix the name")
            return
        }
        var largest = 0
        for file in matches {
            guard let size = PNGInfo.declaredSize(file.bytes) else {
                diagnostics.append(
                    Diagnostic(
                        .error, "order-image-format", file: file.path, path: "", "\(file.path) is not a PNG image", fix: "save it as PNG"))
                continue
            }
            largest = max(largest, size.width)
            if size.width != size.height {
                diagnostics.append(
                    Diagnostic(
                        .warning, "order-image-size", file: file.path, path: "",
                        "\(file.path) is \(size.width)×\(size.height) px; Wallet shows order images in a square and crops the rest",
                        fix: "make it square"))
            }
        }
        if largest > 0, largest < Self.recommendedImagePixels {
            warning(
                "order-image-size", path,
                "the largest \"\(MessageText.cut(stem))\" image is \(largest) px wide; Wallet scales it up blurred on 3x screens",
                fix: "add \(stem)@3x.png of at least \(Self.recommendedImagePixels)×\(Self.recommendedImagePixels) px")
        }
    }
}
