import Foundation
import FuzzDriver
import PassmintPay

/// The Apple Pay token reader: `PaymentToken(json:)` on the input and, when it parses, the signature check (CMS,
/// certificates, marker OIDs, chain to the shipped Apple Root CA - G3) at a fixed time.
let verifier = try! PaymentSignatureVerifier()
let time = Date(timeIntervalSince1970: 1_768_471_260)

runFuzzer { data, size in
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let token = try? PaymentToken(json: bytes) else { return 0 }
    _ = try? verifier.verify(token, at: time)
    return 0
}
