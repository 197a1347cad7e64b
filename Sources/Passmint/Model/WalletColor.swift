/// A colour of `pass.json` as Wallet reads it: `rgb(r, g, b)`, each part 0–255, spaces and tabs allowed around the
/// text and its parts. The one reader of pass colours: lint checks with it, the Google mapping and the pages write
/// what it reads. Read byte by byte (every pass of a batch has several colours).
public struct WalletColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// The colour `text` names, or nil when Wallet would not read it as one (`#rrggbb`, `RGB(…)`, a part above 255).
    public init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
        guard bytes.count >= 5, bytes.prefix(4).elementsEqual("rgb(".utf8), bytes.last == UInt8(ascii: ")") else { return nil }
        let parts = bytes.dropFirst(4).dropLast().split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var values: [UInt8] = []
        for part in parts {
            let digits = part.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard value <= 255 else { return nil }
            values.append(UInt8(value))
        }
        (red, green, blue) = (values[0], values[1], values[2])
    }

    /// `rgb(r, g, b)`, as `pass.json` and CSS write it.
    public var rgb: String { "rgb(\(red), \(green), \(blue))" }

    /// `#rrggbb`, as Google Wallet writes it.
    public var hex: String { "#" + hexString([red, green, blue]) }
}
