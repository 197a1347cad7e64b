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
            #expect(JSONRules.parseColor(good), "\(good)")
        }
        for bad in [
            "rgb(256,0,0)", "rgb(1,2)", "rgb(1,2,3,4)", "rgb(,2,3)", "rgb(1,2,3", "#ffffff", "rgb(1.5,2,3)", "rgb(-1,2,3)", "rgb(1 2,3,4)",
            "rgb(1000,0,0)", "RGB(1,2,3)", "",
        ] {
            #expect(!JSONRules.parseColor(bad), "\(bad)")
        }
    }
}

@Suite(.computeThreads) struct SpaceTrimmingTests {
    @Test func trimsLikeFoundation() {
        for text in ["", " ", "a", " a", "a ", "\ta b\t", "\u{00A0}x", "x\u{2003}", "\n x \n", "Zoë "] {
            #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }
}
