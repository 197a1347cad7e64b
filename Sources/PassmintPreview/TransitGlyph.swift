import Passmint

/// The transit-type glyph Wallet draws between a boarding pass's primary fields, as inline SVG in `currentColor`.
enum TransitGlyph {
    static func svg(_ type: TransitType?) -> String {
        let name: String
        let shape: String
        switch type {
        case .air?:
            name = "plane"
            shape = "<path d=\"M2 13l8-1 5-9h3l-2 9 5-.5 2-3h2l-1 4.5 1 4.5h-2l-2-3-5-.5 2 9h-3l-5-9-8-1z\"/>"
        case .train?:
            name = "train"
            shape =
                "<rect x=\"6\" y=\"2\" width=\"16\" height=\"18\" rx=\"4\"/>"
                + "<rect x=\"9\" y=\"5\" width=\"10\" height=\"6\" fill=\"var(--bg)\"/>"
                + "<path d=\"M8 22l-3 5h3l2-3h8l2 3h3l-3-5z\"/>"
        case .bus?:
            name = "bus"
            shape =
                "<rect x=\"4\" y=\"3\" width=\"20\" height=\"19\" rx=\"3\"/>"
                + "<rect x=\"7\" y=\"6\" width=\"14\" height=\"7\" fill=\"var(--bg)\"/>"
                + "<rect x=\"6\" y=\"22\" width=\"4\" height=\"4\"/><rect x=\"18\" y=\"22\" width=\"4\" height=\"4\"/>"
        case .boat?:
            name = "boat"
            shape =
                "<path d=\"M13 2h2v6l8 3-3 9H8L5 11l8-3z\"/>"
                + "<path d=\"M2 24c3 2 5 2 8 0 3 2 5 2 8 0 3 2 5 2 8 0v2c-3 2-5 2-8 0-3 2-5 2-8 0-3 2-5 2-8 0z\"/>"
        case .generic?, nil:
            name = "arrow"
            shape = "<path d=\"M3 12h16l-5-5 2-2 9 9-9 9-2-2 5-5H3z\"/>"
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28" width="28" height="28" fill="currentColor" role="img" \
            aria-label="\(name)"><title>\(name)</title>\(shape)</svg>
            """
    }
}
