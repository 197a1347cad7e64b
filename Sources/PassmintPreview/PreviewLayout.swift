public import Passmint

/// Wallet's layout rules, as the preview applies them: how many fields of each kind a style shows, which images it
/// draws, and whether a pass gets the poster event ticket or semantic boarding pass layout.
public enum PreviewLayout {
    /// Which layout Wallet uses for a pass.
    public enum Kind: String, Sendable {
        /// The layout of the pass's style.
        case classic
        /// iOS 18 poster event ticket: artwork, logos and semantic tags.
        case posterEventTicket
        /// iOS 26 semantic boarding pass: the flight drawn from semantic tags.
        case semanticBoardingPass
    }

    /// The most fields of each kind a style shows on the front; extra fields are dropped, as Wallet drops them.
    public struct Limits: Sendable, Equatable {
        /// Header fields (shown even when passes are stacked).
        public var header: Int
        /// Primary fields (two on a boarding pass, around the transit glyph).
        public var primary: Int
        /// Secondary fields.
        public var secondary: Int
        /// Auxiliary fields (an event ticket has two rows of this many, by `row`).
        public var auxiliary: Int
        /// Coupons, store cards and generic passes with a square barcode show secondary and auxiliary fields on one
        /// row of at most this many together.
        public var secondaryAndAuxiliary: Int?
    }

    /// The front-field limits of `style` (`squareBarcode`: the barcode shown is a QR or Aztec code).
    public static func limits(style: Pass.Style, squareBarcode: Bool) -> Limits {
        switch style {
        case .boardingPass:
            return Limits(header: 3, primary: 2, secondary: 4, auxiliary: 5, secondaryAndAuxiliary: nil)
        case .eventTicket:
            return Limits(header: 3, primary: 1, secondary: 4, auxiliary: 4, secondaryAndAuxiliary: nil)
        case .coupon, .storeCard, .generic:
            return Limits(header: 3, primary: 1, secondary: 4, auxiliary: 4, secondaryAndAuxiliary: squareBarcode ? 4 : nil)
        }
    }

    /// The images a style draws besides the icon (`eventTicket`: a strip, or else background and thumbnail).
    public static func images(style: Pass.Style, hasStrip: Bool) -> [String] {
        switch style {
        case .boardingPass: ["logo", "footer"]
        case .coupon, .storeCard: ["logo", "strip"]
        case .eventTicket: hasStrip ? ["logo", "strip"] : ["logo", "background", "thumbnail"]
        case .generic: ["logo", "thumbnail"]
        }
    }

    /// Lint codes that keep Wallet from using an enhanced layout the pass asks for.
    static let posterBlockers: Set<String> = ["poster-semantics-missing", "style-scheme-order", "style-scheme-mismatch"]
    static let boardingBlockers: Set<String> = [
        "boarding-semantics-missing", "semantic-boarding-pass-transit", "style-scheme-order", "style-scheme-mismatch",
    ]

    /// The layout Wallet uses: the enhanced one the pass lists in `preferredStyleSchemes` when it meets that layout's
    /// rules (lint finds none of the errors that make Wallet fall back), else the classic one.
    public static func kind(style: Pass.Style, schemes: [String], diagnostics: [Diagnostic]) -> Kind {
        let codes = Set(diagnostics.map(\.code))
        if style == .eventTicket, schemes.contains("posterEventTicket"), codes.isDisjoint(with: posterBlockers) {
            return .posterEventTicket
        }
        if style == .boardingPass, schemes.contains("semanticBoardingPass"), codes.isDisjoint(with: boardingBlockers) {
            return .semanticBoardingPass
        }
        return .classic
    }

    /// The barcode Wallet shows: the first of `barcodes` the device draws. The iOS 27 formats (Code 39, Codabar,
    /// EAN-13, ITF) only with `iOS27`, else the first classic one, as today's devices; the Watch also skips Code 128.
    public static func barcode(_ barcodes: [Barcode], watch: Bool, iOS27: Bool = false) -> Barcode? {
        barcodes.first { ($0.format.isClassic || iOS27) && !(watch && $0.format == .code128) }
    }
}
