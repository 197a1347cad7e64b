import Foundation
import PassmintTestTraits
import Testing

@testable import Passmint

/// The hand-written helpers a batch calls for every row give what Foundation's general-purpose versions gave.
@Suite(.computeThreads) struct FastPathHelpersTests {
    @Test func base64URLMatchesFoundationForEveryLength() {
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected, "\(bytes)")
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test func colorsAreReadAsWalletReadsThem() {
        for good in ["rgb(0,0,0)", "rgb(255, 255, 255)", " rgb( 23 ,187,\t82 ) ", "rgb(007,8,9)"] {
            #expect(WalletColor(good) != nil, "\(good)")
        }
        for bad in [
            "rgb(256,0,0)", "rgb(1,2)", "rgb(1,2,3,4)", "rgb(,2,3)", "rgb(1,2,3", "#ffffff", "rgb(1.5,2,3)", "rgb(-1,2,3)", "rgb(1 2,3,4)",
            "rgb(1000,0,0)", "RGB(1,2,3)", "",
        ] {
            #expect(WalletColor(bad) == nil, "\(bad)")
        }
        let color = WalletColor(" rgb( 23 ,187,\t82 ) ")
        #expect(color == WalletColor(red: 23, green: 187, blue: 82))
        #expect(color?.rgb == "rgb(23, 187, 82)")
        #expect(color?.hex == "#17bb52")
        #expect(WalletColor("rgb(0,0,0)")?.hex == "#000000")
        #expect(WalletColor("rgb(255, 255, 255)")?.hex == "#ffffff")
    }
}

@Suite(.computeThreads) struct SpaceTrimmingTests {
    @Test func trimsLikeFoundation() {
        for text in ["", " ", "a", " a", "a ", "\ta b\t", "\u{00A0}x", "x\u{2003}", "\n x \n", "Zoë "] {
            #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }
}
