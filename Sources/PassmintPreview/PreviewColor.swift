import Foundation
import Passmint

/// A colour of `pass.json` (`rgb(r, g, b)` as Apple documents, or `#rrggbb`/`#rgb` as some tools write), as CSS.
struct PreviewColor: Sendable, Equatable {
    var red: Int
    var green: Int
    var blue: Int

    /// Parses `rgb(23, 187, 82)`, `#17bb52` or `#1b5`; nil for anything else.
    init?(_ text: String?) {
        guard let text = text?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
        if let color = WalletColor(text) {
            (red, green, blue) = (Int(color.red), Int(color.green), Int(color.blue))
        } else if text.hasPrefix("#"), let value = Int(text.dropFirst(), radix: 16) {
            switch text.count {
            case 7: (red, green, blue) = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
            case 4: (red, green, blue) = ((value >> 8 & 0xF) * 17, (value >> 4 & 0xF) * 17, (value & 0xF) * 17)
            default: return nil
            }
        } else {
            return nil
        }
    }

    init(red: Int, green: Int, blue: Int) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// `rgb(r, g, b)`.
    var css: String { "rgb(\(red), \(green), \(blue))" }

    /// Relative luminance 0…1 (sRGB weights, no gamma), to choose a readable default text colour.
    var luminance: Double { (0.299 * Double(red) + 0.587 * Double(green) + 0.114 * Double(blue)) / 255 }

    /// Wallet's defaults when a pass sets no colours: a light grey card with black text and grey labels.
    static let defaultBackground = PreviewColor(red: 242, green: 242, blue: 247)
}
