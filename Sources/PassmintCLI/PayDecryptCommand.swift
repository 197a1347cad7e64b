import ArgumentParser
import Foundation
import Passmint
import PassmintPay

struct PayDecryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Verify an Apple Pay payment token's signature and decrypt its payment data.",
        discussion: """
            The token is the JSON the app or web page sent: the whole PKPaymentToken or its paymentData. The signature \
            must chain to Apple Root CA - G3 and its signing time lie within --window of the verification time (--at, \
            default now). The account number, cryptogram, EMV data and encrypted PIN are masked (last four characters) \
            unless --reveal is given. Exit status 1 with the reason when the token does not verify or decrypt.
            """
    )

    @Argument(help: ArgumentHelp("The token's JSON file.", valueName: "token.json"))
    var token: String

    @OptionGroup(title: "Merchant keys") var merchant: MerchantKeyOptions

    @Option(
        help: ArgumentHelp("Verify as at this RFC 3339 time (default: now), e.g. the time a stored token was received.", valueName: "time"),
        transform: { try OptionValue.time($0, option: "--at") })
    var at: Date?

    @Option(
        help: ArgumentHelp("How far the signing time may lie from the verification time (default: 5m).", valueName: "duration"),
        transform: { try OptionValue.duration($0, option: "--window", example: OptionValue.durationExample) })
    var window: Duration = PaymentSignatureVerifier.defaultSigningTimeWindow

    @Option(
        name: .customLong("test-only-root"),
        help: ArgumentHelp("FOR TESTS ONLY: trust this root instead of Apple Root CA - G3.", valueName: "pem", visibility: .hidden))
    var testOnlyRoot: String?

    @Flag(help: "Print the payment data as JSON.")
    var json = false

    @Flag(help: "Print the account number and cryptogram in full (they are masked otherwise).")
    var reveal = false

    func run() async throws {
        let keys = try merchant.merchantKeys()
        let verifier =
            try testOnlyRoot.map { PaymentSignatureVerifier(testOnlyRoot: try Certificate(contentsOf: $0), signingTimeWindow: window) }
            ?? PaymentSignatureVerifier(signingTimeWindow: window)
        let decryptor = try PaymentTokenDecryptor(merchantKeys: keys, verifier: verifier)
        let bytes = try FileIO.readText(token, what: "payment token")
        let payment = try decryptor.decrypt(json: bytes, at: at ?? Date())
        if json {
            print(JSONWriter.string(payment.json(reveal: reveal)), terminator: "")
        } else {
            print(payment.text(reveal: reveal))
        }
    }

}
