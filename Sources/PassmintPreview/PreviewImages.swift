import Foundation
import Passmint

/// The pass's images as `data:` URIs, so the preview is one file that loads nothing: `@2x` first (what a phone
/// shows), then `@1x`, then `@3x`; a top-level image wins over a localized copy, as in Wallet. A file that is not a
/// whole, readable PNG is skipped (lint lists it under the picture).
struct PreviewImages: Sendable {
    private let files: [String: [UInt8]]
    private let strings: PreviewStrings

    init(files: [PassContents.File], strings: PreviewStrings) {
        var byPath: [String: [UInt8]] = [:]
        for file in files where file.path.lowercased().hasSuffix(".png") { byPath[file.path] = file.bytes }
        self.files = byPath
        self.strings = strings
    }

    /// The data URI of image `name` (`logo`, `strip`, …), nil when the pass has no readable one.
    func dataURI(_ name: String) -> String? {
        path(name).flatMap { files[$0] }.map { "data:image/png;base64," + Data($0).base64EncodedString() }
    }

    /// Whether the pass has a readable image `name`.
    func has(_ name: String) -> Bool { path(name) != nil }

    /// The file chosen for `name`.
    func path(_ name: String) -> String? {
        let candidates = ["\(name)@2x.png", "\(name).png", "\(name)@3x.png"]
        let localized = candidates.compactMap { strings.localizedPath($0) }
        return (candidates + localized).first { path in
            guard let bytes = files[path] else { return false }
            return (try? PNGInfo(bytes: bytes, file: path)) != nil
        }
    }
}
